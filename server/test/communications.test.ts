import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMUNICATION_EXPORT_MAX,
  COMMUNICATION_MESSAGES,
  type Communication,
  type CommunicationActivity,
  type CommunicationWorkUnit,
} from '@cfs/contracts/communications';
import { COMMUNICATION_ITEM_EXPAND } from '../src/areas/workunitcommunications/queries.js';
import { communicationEntity } from '../src/areas/workunitcommunications/resource.js';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import { buildListSql, executeListStatement } from '../src/odata/list-query-sql.js';
import { parseListQuery } from '../src/odata/list-query.js';
import { createStaffedTenant, createTenantAs, createUserIn, createWorkUnitAs, unique } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
/** Open Contoso and Fabrikam work units (operator sees Contoso's, operator2 Fabrikam's). */
let contosoUnits: number[];
let fabrikamUnit: number;

beforeAll(async () => {
  portal = await createTestPortal();
  contosoUnits = [];
  for (let i = 0; i < 2; i += 1)
    contosoUnits.push((await createWorkUnitAs(portal, 'operator', DEMO.contoso)).workUnitId);
  fabrikamUnit = (await createWorkUnitAs(portal, 'operator2', DEMO.fabrikam)).workUnitId;
  await createUserIn(portal, 'comm-viewer', ['WorkUnitCommunications:view'], DEMO.contoso);
  await createUserIn(
    portal,
    'comm-editor',
    ['WorkUnitCommunications:view', 'WorkUnitCommunications:edit'],
    DEMO.contoso,
  );
});
afterAll(async () => {
  await portal?.close();
});

const URL = '/v1/workunitcommunications';
const ACTIVITIES = '/v1/workunitcommunicationactivities';
const stamp = () => Math.random().toString(36).slice(2, 8);
const form = (overrides: Record<string, unknown> = {}) => ({
  title: `Mail outage ${stamp()}`,
  tenantId: DEMO.contoso,
  serviceManager: 'Oscar Operator',
  ...overrides,
});

async function create(user: string, overrides: Record<string, unknown> = {}): Promise<Communication> {
  const response = await portal.as(user, { method: 'PUT', url: URL, payload: form(overrides) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Communication>();
}

const update = (user: string, id: string, payload: Record<string, unknown>) =>
  portal.as(user, { method: 'POST', url: `${URL}/${id}`, payload });

async function list(user: string, query = ''): Promise<{ '@odata.count': number; value: Communication[] }> {
  const response = await portal.as(user, { method: 'GET', url: `${URL}?$count=true${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const filter = (text: string) => `&$filter=${encodeURIComponent(text)}`;
const link = (user: string, id: string, workunitIds: unknown) =>
  portal.as(user, { method: 'POST', url: `${URL}/${id}/workUnits`, payload: { workunitIds } });

async function addActivity(
  user: string,
  communicationId: string,
  overrides: Record<string, unknown> = {},
): Promise<CommunicationActivity> {
  const response = await portal.as(user, {
    method: 'PUT',
    url: ACTIVITIES,
    payload: {
      workUnitCommunicationId: communicationId,
      activityType: 'TaskActivity',
      details: 'Watch the queue',
      ...overrides,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CommunicationActivity>();
}

describe('work unit communications: create, read, update, delete (spec 001 §4, §5, §7)', () => {
  it('creates a communication as Investigating by default, read back with its tenant, units and activities', async () => {
    const tenant = await createStaffedTenant(portal, { body: { internalNotificationEmailAddress: 'noc@own.example' } });
    const created = await create(tenant.userName, {
      tenantId: tenant.tenantId,
      details: 'Outbound mail queues.',
      currentImpact: 'Mail delayed',
    });
    expect(created).toMatchObject({
      status: 'Investigating',
      tenantId: tenant.tenantId,
      tenant: { name: tenant.name, internalNotificationEmailAddress: 'noc@own.example' },
      serviceManager: 'Oscar Operator',
      details: 'Outbound mail queues.',
      currentImpact: 'Mail delayed',
      customerAssistanceRequired: false,
      isOverdue: false,
      isInternalOverdue: false,
      externalReportPath: null,
      changeWorkUnitId: null,
      createdBy: tenant.userName,
      userChangedBy: tenant.userName,
    });
    expect(created.publicWorkUnitCommunicationId).toBeGreaterThan(0);
    const read = await portal.as(tenant.userName, {
      method: 'GET',
      url: `${URL}/${created.workUnitCommunicationId}`,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<Communication>()).toMatchObject({
      title: created.title,
      workUnits: [],
      workUnitCommunicationActivities: [],
    });
  });

  it('updates every field of the form, records who changed it and when, and keeps the change history', async () => {
    const created = await create('operator');
    const values = {
      ...form({ title: 'Mail outage (updated)' }),
      status: 'ConfirmedImpact',
      details: 'Queue at the gateway.',
      customerAssistanceRequired: true,
      eventStarted: '2026-03-01T08:00:00.000Z',
      eventEngaged: '2026-03-01T08:15:00.000Z',
      eventMitigated: '2026-03-01T09:00:00.000Z',
      nextUpdate: '2099-03-01T10:00:00.000Z',
      nextInternalUpdate: '2099-03-01T09:30:00.000Z',
      maximumImpact: 'All mail',
      currentImpact: 'Some mail',
      impactedServices: 'Email',
      internalBridge: 'Bridge 42',
    };
    const response = await update('comm-editor', created.workUnitCommunicationId, values);
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json<Communication>();
    const { tenantId: _tenantId, ...expected } = values;
    expect(updated).toMatchObject({ ...expected, userChangedBy: 'comm-editor', createdBy: 'operator' });
    expect(new Date(updated.modified).getTime()).toBeGreaterThanOrEqual(new Date(created.modified).getTime());
    expect(updated.userChanged).not.toBeNull();
    const audit = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('audit_event')
      .select(['action', 'changes'])
      .where('entity_type', '=', 'workUnitCommunication')
      .where('entity_id', '=', created.workUnitCommunicationId)
      .orderBy('audit_event_id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['create', 'update']);
    expect(audit[1]?.changes).toMatchObject({
      title: { from: created.title, to: 'Mail outage (updated)' },
      status: { from: 'Investigating', to: 'ConfirmedImpact' },
    });
  });

  it('stores dates in UTC whatever offset they are sent with', async () => {
    const created = await create('operator', {
      eventStarted: '2026-03-01T10:00:00+02:00',
      nextUpdate: '2099-06-30T23:30:00-05:00',
    });
    expect(created.eventStarted).toBe('2026-03-01T08:00:00.000Z');
    expect(created.nextUpdate).toBe('2099-07-01T04:30:00.000Z');
    const stored = await sql<{
      started: string;
    }>`SELECT to_char(event_started AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS started FROM work_unit_communication WHERE work_unit_communication_id = ${created.workUnitCommunicationId}`.execute(
      portal.db,
    );
    expect(stored.rows[0]?.started).toBe('2026-03-01 08:00');
  });

  it('clears the next update when the status is Resolved or Cancelled', async () => {
    const created = await create('operator', { nextUpdate: '2099-01-01T00:00:00.000Z' });
    expect(created.nextUpdate).toBe('2099-01-01T00:00:00.000Z');
    const cancelled = await update(
      'operator',
      created.workUnitCommunicationId,
      form({
        status: 'Cancelled',
        nextUpdate: '2099-01-01T00:00:00.000Z',
        nextInternalUpdate: '2099-01-01T00:00:00.000Z',
      }),
    );
    expect(cancelled.json()).toMatchObject({
      status: 'Cancelled',
      nextUpdate: null,
      nextInternalUpdate: '2099-01-01T00:00:00.000Z',
    });
    const resolved = await create('operator', {
      status: 'Resolved',
      rootCause: 'A full disk',
      nextUpdate: '2099-01-01T00:00:00.000Z',
    });
    expect(resolved).toMatchObject({ status: 'Resolved', rootCause: 'A full disk', nextUpdate: null });
  });

  it('answers each missing field with the spec’s message and writes nothing', async () => {
    const count = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM work_unit_communication`.execute(portal.db)).rows[0]!.n;
    const before = await count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: '' }, 'title', COMMUNICATION_MESSAGES.titleRequired],
      [{ title: '   ' }, 'title', COMMUNICATION_MESSAGES.titleRequired],
      [{ title: undefined }, 'title', COMMUNICATION_MESSAGES.titleRequired],
      [{ tenantId: undefined }, 'tenantId', COMMUNICATION_MESSAGES.tenantRequired],
      [{ tenantId: '' }, 'tenantId', COMMUNICATION_MESSAGES.tenantRequired],
      [{ serviceManager: '' }, 'serviceManager', COMMUNICATION_MESSAGES.serviceManagerRequired],
      [{ serviceManager: undefined }, 'serviceManager', COMMUNICATION_MESSAGES.serviceManagerRequired],
      [{ status: 'Resolved' }, 'rootCause', COMMUNICATION_MESSAGES.rootCauseRequired],
      [{ status: 'Resolved', rootCause: '  ' }, 'rootCause', COMMUNICATION_MESSAGES.rootCauseRequired],
    ];
    for (const [overrides, field, message] of cases) {
      const response = await portal.as('operator', { method: 'PUT', url: URL, payload: form(overrides) });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json<{ errors: Record<string, string[]> }>().errors[field], JSON.stringify(overrides)).toEqual([
        message,
      ]);
    }
    // A tenant the caller may not touch is no tenant at all, and names nothing of it.
    const foreign = await portal.as('operator', {
      method: 'PUT',
      url: URL,
      payload: form({ tenantId: DEMO.fabrikam }),
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({
      message: COMMUNICATION_MESSAGES.saveFailed,
      errors: { tenantId: [COMMUNICATION_MESSAGES.tenantRequired] },
    });
    // The same rules hold for an update.
    const created = await create('operator');
    const resolvedWithoutCause = await update(
      'operator',
      created.workUnitCommunicationId,
      form({ status: 'Resolved' }),
    );
    expect(resolvedWithoutCause.statusCode).toBe(400);
    expect(resolvedWithoutCause.json().errors.rootCause).toEqual([COMMUNICATION_MESSAGES.rootCauseRequired]);
    expect(await count()).toBe(before + 1);
  });

  it('answers bad input with 400, never 500', async () => {
    const created = await create('operator');
    const bodies: unknown[] = [
      form({ status: 'Closed' }),
      form({ nextUpdate: 'tomorrow' }),
      form({ eventStarted: '2026-13-45T00:00:00Z' }),
      form({ customerAssistanceRequired: 'yes' }),
      form({ title: 'x'.repeat(201) }),
      form({ details: 'x'.repeat(4001) }),
      form({ tenantId: 'not-a-guid' }),
      [],
      'text',
    ];
    for (const payload of bodies) {
      for (const [method, url] of [
        ['PUT', URL],
        ['POST', `${URL}/${created.workUnitCommunicationId}`],
      ] as const) {
        const response = await portal.as('operator', {
          method,
          url,
          payload: JSON.stringify(payload),
          headers: { 'content-type': 'application/json' },
        });
        expect(response.statusCode, `${method} ${JSON.stringify(payload).slice(0, 60)}`).toBe(400);
      }
    }
    for (const url of [
      `${URL}/42`,
      `${URL}/not-an-id`,
      `${URL}?$filter=nosuchfield eq 1`,
      `${URL}?$filter=created ge 'yesterday'`,
      `${URL}?$top=1001`,
      `${URL}?$orderby=externalReportPath asc`,
      `${ACTIVITIES}?$filter=workUnitCommunicationId eq 'x'`,
    ]) {
      const response = await portal.as('operator', { method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
    }
    const missing = await portal.as('operator', { method: 'GET', url: `${URL}/${crypto.randomUUID()}` });
    expect(missing.statusCode).toBe(404);
    expect((await link('operator', created.workUnitCommunicationId, [])).statusCode).toBe(400);
    expect((await link('operator', created.workUnitCommunicationId, ['1'])).statusCode).toBe(400);
    expect((await link('operator', created.workUnitCommunicationId, [-1])).statusCode).toBe(400);
    for (const request of [
      { method: 'DELETE', url: `${URL}/${created.workUnitCommunicationId}/workUnits/abc` },
      {
        method: 'PUT',
        url: ACTIVITIES,
        payload: { workUnitCommunicationId: 'x', activityType: 'TaskActivity', details: 'x' },
      },
      {
        method: 'PUT',
        url: ACTIVITIES,
        payload: { workUnitCommunicationId: created.workUnitCommunicationId, activityType: 'Other', details: 'x' },
      },
    ] as const) {
      const response = await portal.as('operator', request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(400);
    }
  });

  it('moves a communication without linked units to another of the caller’s tenants, its activities along, and to no tenant out of reach', async () => {
    const created = await create('admin');
    const activity = await addActivity('admin', created.workUnitCommunicationId);
    const target = await createTenantAs(portal, 'admin');
    const moved = await update(
      'admin',
      created.workUnitCommunicationId,
      form({ title: created.title, tenantId: target.tenantId }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ tenantId: target.tenantId, tenant: { name: target.name } });
    const stored = await sql<{
      tenant_id: string;
    }>`SELECT tenant_id FROM work_unit_communication_activity WHERE work_unit_communication_activity_id = ${activity.workUnitCommunicationActivityId}`.execute(
      portal.db,
    );
    expect(stored.rows[0]?.tenant_id).toBe(target.tenantId);
    const own = await create('operator');
    const refused = await update(
      'operator',
      own.workUnitCommunicationId,
      form({ title: own.title, tenantId: DEMO.fabrikam }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message: COMMUNICATION_MESSAGES.saveFailed,
      errors: { tenantId: [COMMUNICATION_MESSAGES.tenantRequired] },
    });
  });

  it('deletes a communication with its links and activities', async () => {
    const created = await create('operator');
    await addActivity('operator', created.workUnitCommunicationId);
    expect((await link('operator', created.workUnitCommunicationId, [contosoUnits[0]])).statusCode).toBe(200);
    const deleted = await portal.as('operator', { method: 'DELETE', url: `${URL}/${created.workUnitCommunicationId}` });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await portal.as('operator', { method: 'GET', url: `${URL}/${created.workUnitCommunicationId}` })).statusCode,
    ).toBe(404);
    const left = await sql<{
      n: number;
    }>`SELECT (SELECT count(*) FROM work_unit_communication_activity WHERE work_unit_communication_id = ${created.workUnitCommunicationId})
      + (SELECT count(*) FROM work_unit_communication_work_unit WHERE work_unit_communication_id = ${created.workUnitCommunicationId}) AS n`.execute(
      portal.db,
    );
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect(
      (await portal.as('operator', { method: 'DELETE', url: `${URL}/${created.workUnitCommunicationId}` })).statusCode,
    ).toBe(404);
  });
});

describe('the communications list (spec 000 §7, 001 §9)', () => {
  it('lists newest first with the tenant, linked units and activities expanded', async () => {
    const tenant = await createStaffedTenant(portal, { body: { internalNotificationEmailAddress: 'noc@own.example' } });
    const staff = tenant.userName;
    const made = await create(staff, { tenantId: tenant.tenantId });
    const unit = await createWorkUnitAs(portal, staff, tenant.tenantId);
    expect((await link(staff, made.workUnitCommunicationId, [unit.workUnitId])).statusCode).toBe(200);
    // A completed step is a past one (ResolutionActivity), an open one the next (TaskActivity).
    await addActivity(staff, made.workUnitCommunicationId, { isComplete: true, completed: '2026-03-01T09:00:00Z' });
    await addActivity(staff, made.workUnitCommunicationId);
    await create(staff, { tenantId: tenant.tenantId });
    await create(staff, { tenantId: tenant.tenantId });
    const page = await list(staff, '&$expand=tenant,workUnitCommunicationActivities,workUnits/tenant');
    expect(page['@odata.count']).toBe(3);
    const created = page.value.map((row) => row.created);
    expect(created).toEqual([...created].sort().reverse());
    const outage = page.value.find((row) => row.workUnitCommunicationId === made.workUnitCommunicationId);
    expect(outage?.tenant).toEqual({ name: tenant.name, internalNotificationEmailAddress: 'noc@own.example' });
    expect(outage?.workUnits).toHaveLength(1);
    expect(outage?.workUnits?.[0]?.tenant).toEqual({ name: tenant.name });
    expect(outage?.workUnitCommunicationActivities?.map((activity) => activity.activityType)).toEqual([
      'ResolutionActivity',
      'TaskActivity',
    ]);
  });

  it('pages 10 rows by default and sorts by any field', async () => {
    for (let n = 0; n < 11; n += 1) await create('operator', { title: `Paging ${String(n).padStart(2, '0')}` });
    const first = await list('operator');
    expect(first.value).toHaveLength(10);
    expect(first['@odata.count']).toBeGreaterThanOrEqual(11);
    const byTitle = await list(
      'operator',
      `${filter("startswith(title,'Paging ')")}&$orderby=title asc&$top=5&$skip=5`,
    );
    expect(byTitle['@odata.count']).toBe(11);
    expect(byTitle.value.map((row) => row.title)).toEqual([
      'Paging 05',
      'Paging 06',
      'Paging 07',
      'Paging 08',
      'Paging 09',
    ]);
    const descending = await list('operator', `${filter("startswith(title,'Paging ')")}&$orderby=title desc&$top=2`);
    expect(descending.value.map((row) => row.title)).toEqual(['Paging 10', 'Paging 09']);
  });

  it('searches title or current impact, case-insensitively', async () => {
    const term = `zq${stamp()}`;
    const inTitle = await create('operator', { title: `Storage ${term.toUpperCase()} array` });
    const inImpact = await create('operator', { currentImpact: `Slow ${term} reads` });
    await create('operator', { details: `Not searched: ${term}` });
    const found = await list(
      'operator',
      filter(`contains(tolower(title),'${term}') or contains(tolower(currentImpact),'${term}')`),
    );
    expect(found.value.map((row) => row.workUnitCommunicationId).sort()).toEqual(
      [inTitle.workUnitCommunicationId, inImpact.workUnitCommunicationId].sort(),
    );
  });

  it('filters by tenant, status, public id and the created, next update and resolved ranges', async () => {
    const fabrikam = await create('admin', { tenantId: DEMO.fabrikam, title: 'Fabrikam line down' });
    const tenant = await list('admin', filter(`tenantId eq ${DEMO.fabrikam}`));
    expect(tenant.value.length).toBeGreaterThan(0);
    expect(tenant.value.every((row) => row.tenantId === DEMO.fabrikam)).toBe(true);
    expect(tenant.value.map((row) => row.workUnitCommunicationId)).toContain(fabrikam.workUnitCommunicationId);

    const restored = await create('operator', { status: 'ServiceRestored' });
    const status = await list('operator', filter(`status eq 'ServiceRestored'`));
    expect(status.value.map((row) => row.workUnitCommunicationId)).toEqual([restored.workUnitCommunicationId]);

    const byPublicId = await list(
      'operator',
      `${filter(`publicWorkUnitCommunicationId eq ${restored.publicWorkUnitCommunicationId}`)}&$expand=workUnits/tenant,tenant`,
    );
    expect(byPublicId.value.map((row) => row.workUnitCommunicationId)).toEqual([restored.workUnitCommunicationId]);

    const a = await create('operator', { nextUpdate: '2098-01-10T00:00:00Z', eventResolved: '2025-01-10T00:00:00Z' });
    const b = await create('operator', { nextUpdate: '2098-01-20T00:00:00Z', eventResolved: '2025-01-20T00:00:00Z' });
    const next = await list(
      'operator',
      filter('nextUpdate ge 2098-01-05T00:00:00Z and nextUpdate le 2098-01-15T00:00:00Z'),
    );
    expect(next.value.map((row) => row.workUnitCommunicationId)).toEqual([a.workUnitCommunicationId]);
    const resolved = await list(
      'operator',
      filter('eventResolved ge 2025-01-15T00:00:00Z and eventResolved le 2025-01-25T00:00:00Z'),
    );
    expect(resolved.value.map((row) => row.workUnitCommunicationId)).toEqual([b.workUnitCommunicationId]);

    const past = new Date(Date.now() - 10 * 86_400_000).toISOString();
    await sql`UPDATE work_unit_communication SET created = ${past}::timestamptz WHERE work_unit_communication_id = ${a.workUnitCommunicationId}`.execute(
      portal.db,
    );
    const from = new Date(Date.now() - 11 * 86_400_000).toISOString();
    const to = new Date(Date.now() - 9 * 86_400_000).toISOString();
    const created = await list('operator', filter(`created ge ${from} and created le ${to}`));
    expect(created.value.map((row) => row.workUnitCommunicationId)).toEqual([a.workUnitCommunicationId]);
  });

  it('computes overdue and internally overdue for open communications only, and filters by them', async () => {
    const overdue = await create('operator', { nextUpdate: new Date(Date.now() - 60_000).toISOString() });
    const confirmedOverdue = await create('operator', {
      status: 'ConfirmedImpact',
      nextUpdate: new Date(Date.now() - 30 * 60_000).toISOString(),
      nextInternalUpdate: new Date(Date.now() - 60 * 60_000).toISOString(),
    });
    const internal = await create('operator', {
      nextInternalUpdate: new Date(Date.now() - 60_000).toISOString(),
      nextUpdate: '2099-01-01T00:00:00Z',
    });
    const closed = await create('operator', {
      status: 'Cancelled',
      nextInternalUpdate: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(overdue).toMatchObject({ isOverdue: true, isInternalOverdue: false });
    expect(internal).toMatchObject({ isOverdue: false, isInternalOverdue: true });
    expect(closed).toMatchObject({ isOverdue: false, isInternalOverdue: false });
    // The list computes them in SQL and answers a single item (here the create's) with the same
    // statement; the entity's reading of the stored row (what the audit compares) agrees with both.
    for (const item of [overdue, confirmedOverdue, internal, closed]) {
      const id = item.workUnitCommunicationId;
      const [row] = (
        await list('operator', `${filter(`workUnitCommunicationId eq ${id}`)}&$expand=${COMMUNICATION_ITEM_EXPAND}`)
      ).value;
      expect(row).toEqual(item);
      const stored = await scoped(portal.db, ALL_TENANTS)
        .selectFrom('work_unit_communication')
        .selectAll()
        .where('work_unit_communication_id', '=', id)
        .executeTakeFirstOrThrow();
      const { tenant: _tenant, workUnits: _units, workUnitCommunicationActivities: _activities, ...fields } = item;
      expect(JSON.parse(JSON.stringify(communicationEntity.present(stored)))).toEqual(fields);
    }
    const late = (await list('operator', `${filter('isOverdue eq true')}&$top=100`)).value;
    expect(late.map((row) => row.workUnitCommunicationId)).toContain(overdue.workUnitCommunicationId);
    expect(late.every((row) => row.isOverdue)).toBe(true);
    // Overdue whatever its open status, with its internal update late as well.
    expect(late.map((row) => row.workUnitCommunicationId)).toContain(confirmedOverdue.workUnitCommunicationId);
    const onTime = (await list('operator', `${filter('isOverdue eq false')}&$top=100`)).value;
    expect(onTime.map((row) => row.workUnitCommunicationId)).toEqual(
      expect.arrayContaining([internal.workUnitCommunicationId, closed.workUnitCommunicationId]),
    );
    expect(onTime.some((row) => row.isOverdue)).toBe(false);
    const internallyLate = (await list('operator', `${filter('isInternalOverdue eq true')}&$top=100`)).value;
    expect(internallyLate.map((row) => row.workUnitCommunicationId)).toContain(internal.workUnitCommunicationId);
    expect(internallyLate.map((row) => row.workUnitCommunicationId)).not.toContain(closed.workUnitCommunicationId);
    // Time alone makes a communication overdue: the list is never answered "not modified".
    await portal.runtime.changes.whenReady();
    await portal.runtime.changes.sync();
    const tagged = await portal.as('operator', { method: 'GET', url: '/v1/locations?$top=5' });
    expect(tagged.headers.etag).toMatch(/^W\//);
    const answer = await portal.as('operator', { method: 'GET', url: `${URL}?$top=5` });
    expect(answer.headers.etag).toBeUndefined();
    // A new next update answers the overdue one.
    const answered = await update(
      'operator',
      overdue.workUnitCommunicationId,
      form({ title: overdue.title, nextUpdate: '2099-01-01T00:00:00Z' }),
    );
    expect(answered.json()).toMatchObject({ isOverdue: false });
  });

  it('exports at most 1000 rows as CSV', async () => {
    const tenant = await createTenantAs(portal, 'admin', { name: 'Export Tenant' });
    await sql`INSERT INTO work_unit_communication (tenant_id, title, service_manager)
      SELECT ${tenant.tenantId}::uuid, 'Export ' || g, 'Exporter' FROM generate_series(1, ${COMMUNICATION_EXPORT_MAX + 5}) AS g`.execute(
      portal.db,
    );
    const response = await portal.as('admin', {
      method: 'GET',
      url: `${URL}/Export?$filter=${encodeURIComponent(`tenantId eq ${tenant.tenantId}`)}`,
    });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.trim().split('\n');
    expect(lines).toHaveLength(COMMUNICATION_EXPORT_MAX + 1);
    expect(lines[0]).toContain('title');
    // The grid's Export All asks for the same with $top.
    const asked = await portal.as('admin', {
      method: 'GET',
      url: `${URL}/Export?$top=${COMMUNICATION_EXPORT_MAX}&$filter=${encodeURIComponent(`tenantId eq ${tenant.tenantId}`)}`,
    });
    expect(asked.body.trim().split('\n')).toHaveLength(COMMUNICATION_EXPORT_MAX + 1);
    await sql`DELETE FROM work_unit_communication WHERE tenant_id = ${tenant.tenantId}::uuid`.execute(portal.db);
  });
});

describe('linked work units (spec 001 §2, §7)', () => {
  it('links the caller’s units once however often asked, and unlinks them', async () => {
    const staff = await createStaffedTenant(portal);
    const units: number[] = [];
    for (let i = 0; i < 2; i += 1)
      units.push((await createWorkUnitAs(portal, staff.userName, staff.tenantId)).workUnitId);
    const created = await create(staff.userName, { tenantId: staff.tenantId });
    const first = await link(staff.userName, created.workUnitCommunicationId, [units[0], units[1]]);
    expect(first.statusCode, first.body).toBe(200);
    const linked = first.json<CommunicationWorkUnit[]>();
    expect(linked.map((unit) => unit.workUnitId)).toEqual([units[0], units[1]]);
    expect(linked[0]).toMatchObject({ tenantId: staff.tenantId, tenant: { name: staff.name } });
    const again = await link(staff.userName, created.workUnitCommunicationId, [units[1], units[1], units[0]]);
    expect(again.json<CommunicationWorkUnit[]>().map((unit) => unit.workUnitId)).toEqual([units[0], units[1]]);
    const links = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM work_unit_communication_work_unit WHERE work_unit_communication_id = ${created.workUnitCommunicationId}`.execute(
      portal.db,
    );
    expect(links.rows[0]?.n).toBe(2);
    const unlinked = await portal.as(staff.userName, {
      method: 'DELETE',
      url: `${URL}/${created.workUnitCommunicationId}/workUnits/${units[0]}`,
    });
    expect(unlinked.statusCode).toBe(204);
    const read = await portal.as(staff.userName, { method: 'GET', url: `${URL}/${created.workUnitCommunicationId}` });
    expect(read.json<Communication>().workUnits?.map((unit) => unit.workUnitId)).toEqual([units[1]]);
    // Unlinking what is not linked changes nothing.
    expect(
      (
        await portal.as(staff.userName, {
          method: 'DELETE',
          url: `${URL}/${created.workUnitCommunicationId}/workUnits/${units[0]}`,
        })
      ).statusCode,
    ).toBe(204);
  });

  it('refuses a unit the caller cannot see, and links none of the batch', async () => {
    const hidden = await createStaffedTenant(portal, { name: `Hidden tenant ${unique()}` });
    const hiddenUnit = await createWorkUnitAs(portal, hidden.userName, hidden.tenantId, {
      title: `Hidden unit ${unique()}`,
    });
    const created = await create('operator');
    for (const ids of [[hiddenUnit.workUnitId], [contosoUnits[0], hiddenUnit.workUnitId], [2_000_000_000]]) {
      const response = await link('operator', created.workUnitCommunicationId, ids);
      expect(response.statusCode, JSON.stringify(ids)).toBe(400);
      expect(response.json().message).toBe(COMMUNICATION_MESSAGES.workUnitNotVisible);
      expect(response.body).not.toContain(hidden.name);
      expect(response.body).not.toContain(hiddenUnit.title);
    }
    const read = await portal.as('operator', { method: 'GET', url: `${URL}/${created.workUnitCommunicationId}` });
    expect(read.json<Communication>().workUnits).toEqual([]);
  });

  it('refuses a unit of another tenant than the communication’s, even to a caller who sees both', async () => {
    const created = await create('admin');
    const response = await link('admin', created.workUnitCommunicationId, [contosoUnits[0], fabrikamUnit]);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(COMMUNICATION_MESSAGES.linkCrossesTenant);
    const read = await portal.as('admin', { method: 'GET', url: `${URL}/${created.workUnitCommunicationId}` });
    expect(read.json<Communication>().workUnits).toEqual([]);
    // Nor may a communication with linked units move to another tenant.
    expect((await link('admin', created.workUnitCommunicationId, [contosoUnits[0]])).statusCode).toBe(200);
    const moved = await update(
      'admin',
      created.workUnitCommunicationId,
      form({ title: created.title, tenantId: DEMO.fabrikam }),
    );
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors.tenantId).toEqual([COMMUNICATION_MESSAGES.linkCrossesTenant]);
  });
});

describe('activities (spec 001 §3 Communication activity, §4 Activity, §7)', () => {
  it('adds, lists oldest first, edits and deletes a communication’s steps', async () => {
    const created = await create('operator');
    const next = await addActivity('operator', created.workUnitCommunicationId, {
      details: 'Restart the relay',
      isCustomerFacing: true,
    });
    expect(next).toMatchObject({
      activityType: 'TaskActivity',
      isComplete: false,
      completed: null,
      isCustomerFacing: true,
      createdBy: 'operator',
      workUnitCommunicationId: created.workUnitCommunicationId,
    });
    const past = await addActivity('operator', created.workUnitCommunicationId, {
      activityType: 'ResolutionActivity',
      details: 'Queue cleared',
      isComplete: true,
      completed: '2026-03-01T10:00:00+01:00',
    });
    expect(past).toMatchObject({
      activityType: 'ResolutionActivity',
      isComplete: true,
      completed: '2026-03-01T09:00:00.000Z',
    });
    const listed = await portal.as('operator', {
      method: 'GET',
      url: `${ACTIVITIES}?$count=true&$filter=${encodeURIComponent(`workUnitCommunicationId eq ${created.workUnitCommunicationId}`)}`,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ value: CommunicationActivity[] }>().value.map((row) => row.details)).toEqual([
      'Restart the relay',
      'Queue cleared',
    ]);

    // Checking a next step off makes it a past step, completed now.
    const done = await portal.as('operator', {
      method: 'POST',
      url: `${ACTIVITIES}/${next.workUnitCommunicationActivityId}`,
      payload: {
        workUnitCommunicationId: created.workUnitCommunicationId,
        activityType: 'TaskActivity',
        details: 'Relay restarted',
        isComplete: true,
      },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      activityType: 'ResolutionActivity',
      isComplete: true,
      details: 'Relay restarted',
    });
    expect(done.json<CommunicationActivity>().completed).not.toBeNull();

    const missingDetails = await portal.as('operator', {
      method: 'PUT',
      url: ACTIVITIES,
      payload: { workUnitCommunicationId: created.workUnitCommunicationId, activityType: 'TaskActivity', details: ' ' },
    });
    expect(missingDetails.statusCode).toBe(400);
    expect(missingDetails.json().errors.details).toEqual([COMMUNICATION_MESSAGES.detailsRequired]);

    const deleted = await portal.as('operator', {
      method: 'DELETE',
      url: `${ACTIVITIES}/${past.workUnitCommunicationActivityId}`,
    });
    expect(deleted.statusCode).toBe(204);
    const read = await portal.as('operator', { method: 'GET', url: `${URL}/${created.workUnitCommunicationId}` });
    expect(read.json<Communication>().workUnitCommunicationActivities?.map((row) => row.details)).toEqual([
      'Relay restarted',
    ]);
    const stored = await sql<{
      tenant_id: string;
    }>`SELECT tenant_id FROM work_unit_communication_activity WHERE work_unit_communication_activity_id = ${next.workUnitCommunicationActivityId}`.execute(
      portal.db,
    );
    expect(stored.rows[0]?.tenant_id).toBe(DEMO.contoso);
  });

  it('carries the communication’s tenant, and are out of reach of another tenant', async () => {
    const fabrikam = await create('operator2', { tenantId: DEMO.fabrikam });
    const activity = await addActivity('operator2', fabrikam.workUnitCommunicationId);
    const stored = await sql<{
      tenant_id: string;
    }>`SELECT tenant_id FROM work_unit_communication_activity WHERE work_unit_communication_activity_id = ${activity.workUnitCommunicationActivityId}`.execute(
      portal.db,
    );
    expect(stored.rows[0]?.tenant_id).toBe(DEMO.fabrikam);
    const body = {
      workUnitCommunicationId: fabrikam.workUnitCommunicationId,
      activityType: 'TaskActivity',
      details: 'Intruding',
    };
    expect((await portal.as('operator', { method: 'PUT', url: ACTIVITIES, payload: body })).statusCode).toBe(404);
    expect(
      (
        await portal.as('operator', {
          method: 'POST',
          url: `${ACTIVITIES}/${activity.workUnitCommunicationActivityId}`,
          payload: body,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await portal.as('operator', {
          method: 'DELETE',
          url: `${ACTIVITIES}/${activity.workUnitCommunicationActivityId}`,
        })
      ).statusCode,
    ).toBe(404);
    const listed = await portal.as('operator', {
      method: 'GET',
      url: `${ACTIVITIES}?$filter=${encodeURIComponent(`workUnitCommunicationId eq ${fabrikam.workUnitCommunicationId}`)}`,
    });
    expect(listed.json<{ value: unknown[] }>().value).toEqual([]);
    const kept = await sql<{
      details: string;
    }>`SELECT details FROM work_unit_communication_activity WHERE work_unit_communication_id = ${fabrikam.workUnitCommunicationId}`.execute(
      portal.db,
    );
    expect(kept.rows.map((row) => row.details)).toEqual(['Watch the queue']);
  });
});

describe('tenant scope and permissions (spec 001 §6)', () => {
  it('keeps one tenant’s communications from another tenant’s staff: 404 to read, edit, link or delete', async () => {
    const other = await createStaffedTenant(portal, { name: `Hidden tenant ${unique()}` });
    const title = `Hidden outage ${unique()}`;
    const theirs = await create(other.userName, { tenantId: other.tenantId, title });
    const id = theirs.workUnitCommunicationId;
    const theirUnit = (await createWorkUnitAs(portal, other.userName, other.tenantId)).workUnitId;
    expect((await link(other.userName, id, [theirUnit])).statusCode).toBe(200);
    const mine = await create('operator');
    const listed = await list('operator', '&$top=1000');
    // The operator's own communication is listed; the other tenant's, by id, tenant or title, is not.
    expect(listed.value.map((row) => row.workUnitCommunicationId)).toContain(mine.workUnitCommunicationId);
    expect(listed.value.map((row) => row.workUnitCommunicationId)).not.toContain(id);
    expect(listed.value.some((row) => row.tenantId === other.tenantId)).toBe(false);
    expect(JSON.stringify(listed)).toContain(mine.title);
    expect(JSON.stringify(listed)).not.toContain(title);
    expect(JSON.stringify(listed)).not.toContain(other.name);
    const probes = [
      await portal.as('operator', { method: 'GET', url: `${URL}/${id}` }),
      await update('operator', id, form()),
      await update('operator', id, form({ tenantId: other.tenantId })),
      await link('operator', id, [contosoUnits[0]]),
      await portal.as('operator', { method: 'DELETE', url: `${URL}/${id}/workUnits/${theirUnit}` }),
      await portal.as('operator', { method: 'DELETE', url: `${URL}/${id}` }),
    ];
    expect(probes.map((response) => response.statusCode)).toEqual([404, 404, 404, 404, 404, 404]);
    for (const response of probes) {
      expect(response.body).not.toContain(other.name);
      expect(response.body).not.toContain(title);
    }
    const still = await portal.as(other.userName, { method: 'GET', url: `${URL}/${id}` });
    expect(still.json()).toMatchObject({ title, tenantId: other.tenantId, tenant: { name: other.name } });
    expect(still.json<Communication>().workUnits?.map((unit) => unit.workUnitId)).toEqual([theirUnit]);
  });

  it('answers 403 without the WorkUnitCommunications permission the route needs', async () => {
    const created = await create('operator');
    const id = created.workUnitCommunicationId;
    // An end user holds no WorkUnitCommunications permission at all.
    for (const url of [URL, `${URL}/${id}`, ACTIVITIES, `${URL}/Export`])
      expect((await portal.as('enduser', { method: 'GET', url })).statusCode, url).toBe(403);
    // A viewer reads but changes nothing.
    expect((await portal.as('comm-viewer', { method: 'GET', url: `${URL}/${id}` })).statusCode).toBe(200);
    expect((await portal.as('comm-viewer', { method: 'PUT', url: URL, payload: form() })).statusCode).toBe(403);
    expect((await update('comm-viewer', id, form())).statusCode).toBe(403);
    expect((await link('comm-viewer', id, [contosoUnits[0]])).statusCode).toBe(403);
    expect(
      (await portal.as('comm-viewer', { method: 'DELETE', url: `${URL}/${id}/workUnits/${contosoUnits[0]}` }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await portal.as('comm-viewer', {
          method: 'PUT',
          url: ACTIVITIES,
          payload: { workUnitCommunicationId: id, activityType: 'TaskActivity', details: 'x' },
        })
      ).statusCode,
    ).toBe(403);
    // An editor edits and links, but neither creates nor deletes.
    expect((await update('comm-editor', id, form())).statusCode).toBe(200);
    expect((await link('comm-editor', id, [contosoUnits[0]])).statusCode).toBe(200);
    expect((await portal.as('comm-editor', { method: 'PUT', url: URL, payload: form() })).statusCode).toBe(403);
    expect((await portal.as('comm-editor', { method: 'DELETE', url: `${URL}/${id}` })).statusCode).toBe(403);
  });
});

describe('the overdue filter at scale', () => {
  it('reads overdue communications from the partial indexes of open ones', async () => {
    const tenant = await createTenantAs(portal, 'admin', { name: 'Plan Tenant' });
    await sql`INSERT INTO work_unit_communication (tenant_id, title, service_manager, status, next_update, next_internal_update, created)
      SELECT ${tenant.tenantId}::uuid, 'Plan ' || g, 'Planner', CASE WHEN g % 1000 = 0 THEN 'Investigating' ELSE 'Resolved' END,
             now() - interval '1 hour', now() - interval '1 hour', now() - g * interval '1 minute'
      FROM generate_series(1, 20000) AS g`.execute(portal.db);
    await sql`ANALYZE work_unit_communication`.execute(portal.db);
    const indexes = async (field: string) => {
      const { rows, count } = buildListSql(
        scoped(portal.db, ALL_TENANTS).selectFrom('work_unit_communication').selectAll(),
        parseListQuery(communicationEntity.resource, { $filter: `${field} eq true`, $count: 'true' }),
        ALL_TENANTS,
      );
      const names: string[] = [];
      for (const statement of [rows, count]) {
        const { rows: plan } = await executeListStatement(
          portal.db,
          sql<{ 'QUERY PLAN': string }>`EXPLAIN ${statement}`,
        );
        names.push(plan.map((line) => line['QUERY PLAN']).join('\n'));
      }
      return names;
    };
    for (const plan of await indexes('isOverdue')) expect(plan).toContain('work_unit_communication_overdue_idx');
    for (const plan of await indexes('isInternalOverdue'))
      expect(plan).toContain('work_unit_communication_internal_overdue_idx');
    const page = await list('admin', `${filter(`isOverdue eq true and tenantId eq ${tenant.tenantId}`)}`);
    expect(page['@odata.count']).toBe(20);
  });
});
