import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WORK_UNIT_EVENT_TYPES,
  WORK_UNIT_MESSAGES,
  WORK_UNIT_STATES,
  WORK_UNIT_TYPES,
  type WorkUnit,
  workUnitSchema,
} from '@cfs/contracts/work-units';
import { ID_PARAM_MESSAGE } from '@cfs/contracts/values/fields';
import { FIELD_COLUMNS } from '../src/areas/workunits/document.js';
import { DEMO } from '../src/db/demo-ids.js';
import { BASE_ROLES } from '../src/db/seed.js';
import {
  createDirectoryGroup,
  createLocalUser,
  createStaffedTenant,
  createTenantAs,
  createUserIn,
  createWorkUnitAs,
  unique,
} from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';
import { workUnitPatch } from './work-unit-patch.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
  // A planner who names the approvers (nobody may name themselves).
  await createLocalUser(portal, DEMO.contoso, { userName: 'planner', displayName: 'Pat Planner', groups: [] });
});
afterAll(async () => {
  await portal?.close();
});

const incident = (overrides: Record<string, unknown> = {}) => ({
  workUnitId: -1,
  title: 'Router down in branch office',
  severityId: 2,
  stateId: WORK_UNIT_STATES.New,
  tenantId: DEMO.contoso,
  workUnitTypeId: WORK_UNIT_TYPES.Incident,
  ...overrides,
});

const changeRequest = (overrides: Record<string, unknown> = {}) =>
  incident({
    title: 'Upgrade the edge firewall',
    workUnitTypeId: WORK_UNIT_TYPES.ChangeRequest,
    resolution: 'Planned',
    implementationPlan: 'Apply firmware 9.2',
    rollbackPlan: 'Reflash 9.1',
    affectedResources: 'Edge firewall',
    environment: 'Production',
    expectedCFSAlerts: 'Heartbeat gap',
    approver1: 'operator@cfs.example',
    approver2: 'admin@cfs.example',
    plannedStartTime: '2026-12-01T10:00:00.000Z',
    plannedFinishTime: '2026-12-01T12:00:00.000Z',
    ...overrides,
  });

async function create(user: string, body: Record<string, unknown>): Promise<WorkUnit> {
  const response = await portal.as(user, { method: 'PUT', url: '/api/v1/workunits', payload: body });
  if (response.statusCode !== 200) throw new Error(`create: ${response.statusCode} ${response.body}`);
  return response.json<WorkUnit>();
}

const patch = (user: string, unit: WorkUnit, changes: Partial<WorkUnit>) =>
  portal.as(user, {
    method: 'PATCH',
    url: `/v1/workunits/${unit.workUnitId}`,
    headers: { 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify(workUnitPatch(unit, changes)),
  });

describe('creating work units', () => {
  it('creates an incident sent with workUnitId -1 and reads it back with its expansions', async () => {
    const staff = await createStaffedTenant(portal);
    const unit = await create(staff.userName, incident({ tenantId: staff.tenantId, assignmentGroup: 'Network' }));
    expect(unit.workUnitId).toBeGreaterThan(0);
    expect(unit).toMatchObject({
      title: 'Router down in branch office',
      stateId: 1,
      severityId: 2,
      createdBy: staff.userName,
      resolved: null,
    });
    const read = await portal.as(staff.userName, { method: 'GET', url: `/v1/workunits(${unit.workUnitId})` });
    expect(read.json()).toMatchObject({ tenant: { name: staff.name }, workUnitType: { name: 'Incident' } });
    const byPublicId = await portal.as(staff.userName, {
      method: 'GET',
      url: `/v1/workunits(${unit.publicWorkUnitId})`,
    });
    expect(byPublicId.json().workUnitId).toBe(unit.workUnitId);
  });

  it.each([
    ['no title', { title: undefined }, 'title', 'Please enter the title'],
    ['a title shorter than 3 characters', { title: 'ab' }, 'title', 'The title needs at least 3 characters.'],
    ['a blank title', { title: '   ' }, 'title', 'Please enter the title'],
    [
      'a stakeholder email that is no email address',
      { stakeHolderEmailAddress: 'jordan@' },
      'stakeHolderEmailAddress',
      'Please enter a valid email address.',
    ],
    [
      'a stakeholder phone number with letters',
      { stakeHolderPhoneNumber: 'call me maybe' },
      'stakeHolderPhoneNumber',
      'Please enter a valid phone number.',
    ],
    [
      'a reference URL that is not a web address',
      { referenceUrl: 'javascript:alert(1)' },
      'referenceUrl',
      'Please enter a full web address starting with http:// or https://.',
    ],
    ['no severity', { severityId: undefined }, 'severityId', 'Please choose a severity.'],
    ['no work unit type', { workUnitTypeId: undefined }, 'workUnitTypeId', 'Please choose a work unit type.'],
    [
      'a description over 4000 characters',
      { description: 'x'.repeat(4001) },
      'description',
      'Must be 4000 characters or fewer.',
    ],
    ['an effort outside 1, 2, 3, 5, 8, 13', { effort: 4 }, 'effort', 'Please choose an effort of 1, 2, 3, 5, 8 or 13.'],
  ])('rejects %s', async (_name, overrides, field, message) => {
    const response = await portal.as('operator', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: incident(overrides),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('requires the change request fields for a Change Request', async () => {
    const response = await portal.as('operator', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: incident({ workUnitTypeId: WORK_UNIT_TYPES.ChangeRequest }),
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors).sort()).toEqual(
      [
        'affectedResources',
        'approver1',
        'environment',
        'expectedCFSAlerts',
        'implementationPlan',
        'plannedFinishTime',
        'plannedStartTime',
        'resolution',
        'rollbackPlan',
      ].sort(),
    );
  });

  it('rejects a planned finish before the planned start', async () => {
    const response = await portal.as('planner', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: changeRequest({ plannedFinishTime: '2026-12-01T09:00:00.000Z' }),
    });
    expect(response.json().errors.plannedFinishTime).toEqual([
      'Planned Finish Time must be equal to or greater than Planned Start Time.',
    ]);
  });

  it('only lets a new unit be New', async () => {
    const response = await portal.as('operator', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: incident({ stateId: WORK_UNIT_STATES.InProgress }),
    });
    expect(response.json().errors.stateId).toEqual(['That state cannot be chosen from the current state.']);
  });

  it('limits a dropdown custom value to the options of the tenant’s field', async () => {
    await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${DEMO.contoso}`,
      payload: { name: 'Contoso', workUnitField2: JSON.stringify({ Name: 'Region', Type: 2, Options: 'East,West' }) },
    });
    const bad = await portal.as('operator', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: incident({ customValue2: 'North' }),
    });
    expect(bad.json().errors.customValue2).toEqual(['Please choose one of the options of this field.']);
    const undefinedField = await portal.as('operator', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: incident({ customValue9: 'x' }),
    });
    expect(undefinedField.json().errors.customValue9).toEqual(['This custom field is not defined for the tenant.']);
    const good = await create('operator', incident({ customValue2: 'West' }));
    expect(good.customValue2).toBe('West');
  });

  it('writes nothing when a create is refused', async () => {
    const before = (await portal.as('admin', { method: 'GET', url: '/v1/workunits?$count=true&$top=0' })).json()[
      '@odata.count'
    ];
    await portal.as('operator', { method: 'PUT', url: '/api/v1/workunits', payload: incident({ title: 'x' }) });
    const after = (await portal.as('admin', { method: 'GET', url: '/v1/workunits?$count=true&$top=0' })).json()[
      '@odata.count'
    ];
    expect(after).toBe(before);
  });
});

describe('editing with JSON Patch', () => {
  it('moves New only to New, Acknowledged or Canceled; any state after that', async () => {
    const unit = await create('operator', incident());
    expect((await patch('operator', unit, { stateId: WORK_UNIT_STATES.InProgress })).statusCode).toBe(400);
    const acked = await patch('operator', unit, {
      stateId: WORK_UNIT_STATES.Acknowledged,
      assignedTo: 'operator@cfs.example',
    });
    expect(acked.statusCode).toBe(200);
    const next = acked.json<WorkUnit>();
    const resolved = await patch('operator', next, { stateId: WORK_UNIT_STATES.Resolved });
    expect(resolved.json().resolved).not.toBeNull();
    const reopened = await patch('operator', resolved.json<WorkUnit>(), { stateId: WORK_UNIT_STATES.New });
    expect(reopened.json()).toMatchObject({ stateId: 1, resolved: null });
  });

  it('lets one of two concurrent editors win; the other gets the test-value conflict and loses nothing of the first', async () => {
    const unit = await create('operator', incident({ title: 'Original title' }));
    const [first, second] = await Promise.all([
      patch('operator', unit, { title: 'Edited by the first' }),
      patch('admin', unit, { title: 'Edited by the second', severityId: 0 }),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = first.statusCode === 409 ? first : second;
    expect(loser.json().message).toBe('The value at "/title" is not equal to the test value');
    const winner = first.statusCode === 200 ? first : second;
    const stored = (
      await portal.as('operator', { method: 'GET', url: `/v1/workunits(${unit.workUnitId})` })
    ).json<WorkUnit>();
    expect(stored.title).toBe(winner.json<WorkUnit>().title);
    expect(stored.severityId).toBe(winner === second ? 0 : 2);
  });

  it('refuses to change fields that are not editable', async () => {
    const unit = await create('operator', incident());
    const response = await portal.as('operator', {
      method: 'PATCH',
      url: `/v1/workunits/${unit.workUnitId}`,
      payload: [{ op: 'replace', path: '/createdBy', value: 'someone' }],
    });
    expect(response.statusCode).toBe(400);
  });

  it('answers 400, not 500, to a malformed patch document', async () => {
    const unit = await create('operator', incident());
    const response = await portal.as('operator', {
      method: 'PATCH',
      url: `/v1/workunits/${unit.workUnitId}`,
      payload: [{ op: 'replace', path: '/title/deeper/still', value: 1 }],
    });
    expect(response.statusCode).toBe(400);
    const notArray = await portal.as('operator', {
      method: 'PATCH',
      url: `/v1/workunits/${unit.workUnitId}`,
      payload: { title: 'x' },
    });
    expect(notArray.statusCode).toBe(400);
  });

  it('writes history records for field and state changes and events for the protocol engine', async () => {
    const unit = await create('operator', incident({ title: 'History check' }));
    const acked = (
      await patch('operator', unit, {
        stateId: WORK_UNIT_STATES.Acknowledged,
        title: 'History check renamed',
        severityId: 0,
      })
    ).json<WorkUnit>();
    expect(acked.stateId).toBe(2);
    const history = await portal.as('operator', {
      method: 'GET',
      url: `/v1/workunits/GetWorkUnitHistoryRecords(workUnitId=${unit.workUnitId})`,
    });
    const details = history
      .json<{ value: { detail: string; historyType: number | null }[] }>()
      .value.map((r) => [r.historyType, r.detail]);
    expect(details).toEqual(
      expect.arrayContaining([
        [6, 'State changed from New to Acknowledged.'],
        [2, "Title changed from 'History check' to 'History check renamed'."],
        [2, 'Severity changed from Sev2 to Sev0.'],
        [5, 'Work unit created as New.'],
      ]),
    );
    const events = await portal.db
      .selectFrom('work_unit_event')
      .select(['event_type_id'])
      .where('work_unit_id', '=', unit.workUnitId)
      .orderBy('work_unit_event_id')
      .execute();
    expect(events.map((e) => e.event_type_id)).toEqual([
      WORK_UNIT_EVENT_TYPES.OnNew,
      WORK_UNIT_EVENT_TYPES.OnAcknowledged,
      WORK_UNIT_EVENT_TYPES.OnChange,
    ]);
  });

  it('keeps relations to other work units', async () => {
    const a = await create('operator', incident({ title: 'Related A' }));
    const b = await create('operator', incident({ title: 'Related B' }));
    const related = await patch('operator', a, {
      relations: [{ referenceType: 'WorkUnit', referenceId: String(b.workUnitId) }],
    });
    expect(related.json().relations).toEqual([{ referenceType: 'WorkUnit', referenceId: String(b.workUnitId) }]);
  });
});

describe('one work unit', () => {
  /** What the API should answer for a unit, read from its rows and those it names (the test's own reading). */
  async function workUnitFromRows(workUnitId: number): Promise<WorkUnit> {
    const row = await portal.db
      .selectFrom('work_unit')
      .selectAll()
      .where('work_unit_id', '=', workUnitId)
      .executeTakeFirstOrThrow();
    const iso = (value: Date | null) => (value ? value.toISOString() : null);
    const [relations, tenant, type, category, subcategory, protocol] = await Promise.all([
      portal.db
        .selectFrom('work_unit_relation')
        .select(['reference_type as referenceType', 'reference_id as referenceId'])
        .where('work_unit_id', '=', workUnitId)
        .orderBy('reference_type')
        .orderBy('reference_id')
        .execute(),
      portal.db
        .selectFrom('tenant')
        .select([
          'tenant_id as tenantId',
          'name',
          'internal_notification_email_address as internalNotificationEmailAddress',
        ])
        .where('tenant_id', '=', row.tenant_id)
        .executeTakeFirst(),
      portal.db
        .selectFrom('work_unit_type')
        .select(['work_unit_type_id as workUnitTypeId', 'name'])
        .where('work_unit_type_id', '=', row.work_unit_type_id)
        .executeTakeFirst(),
      portal.db
        .selectFrom('work_unit_category')
        .select(['work_unit_category_id as workUnitCategoryId', 'name'])
        .where('work_unit_category_id', '=', row.work_unit_category_id ?? -1)
        .executeTakeFirst(),
      portal.db
        .selectFrom('work_unit_subcategory')
        .select(['work_unit_subcategory_id as workUnitSubcategoryId', 'name'])
        .where('work_unit_subcategory_id', '=', row.work_unit_subcategory_id ?? -1)
        .executeTakeFirst(),
      portal.db
        .selectFrom('protocol')
        .select(['protocol_id as protocolId', 'name', 'manual_actions as manualActions'])
        .where('protocol_id', '=', row.protocol_id ?? -1)
        .executeTakeFirst(),
    ]);
    // Each editable field read from the column of its name (stakeHolderFullName: stakeholder_full_name),
    // not through the product's own map of fields to columns.
    const columns: Record<string, unknown> = row;
    const editable = Object.fromEntries(
      Object.keys(FIELD_COLUMNS).map((field) => {
        const named = Object.keys(columns).filter((column) => column.replaceAll('_', '') === field.toLowerCase());
        expect(named, field).toHaveLength(1);
        const value = columns[named[0]!];
        return [field, value instanceof Date ? value.toISOString() : value];
      }),
    );
    return {
      ...editable,
      workUnitId: row.work_unit_id,
      publicWorkUnitId: row.public_work_unit_id,
      internalWorkUnitId: row.internal_work_unit_id,
      created: row.created.toISOString(),
      createdBy: row.created_by,
      modified: row.modified.toISOString(),
      modifiedBy: row.modified_by,
      resolved: iso(row.resolved),
      relations,
      tenant: tenant ?? null,
      workUnitType: type ?? null,
      category: category ?? null,
      subcategory: subcategory ?? null,
      protocol: protocol ?? null,
    } as WorkUnit;
  }

  it('answers each work unit, by number and by public GUID, as its rows say', async () => {
    // One unit naming everything the item expands: relations, a category, a subcategory, a protocol.
    const a = await create('planner', changeRequest({ title: 'Everything named' }));
    const b = await create('operator', incident({ title: 'Related to everything named' }));
    await patch('operator', a, {
      relations: [
        { referenceType: 'WorkUnit', referenceId: String(b.workUnitId) },
        { referenceType: 'Device', referenceId: DEMO.contoso },
      ],
    });
    const category = await portal.db
      .selectFrom('work_unit_subcategory')
      .select(['work_unit_subcategory_id', 'work_unit_category_id'])
      .executeTakeFirst();
    const protocol = await portal.db.selectFrom('protocol').select('protocol_id').executeTakeFirst();
    await portal.db
      .updateTable('work_unit')
      .set({
        work_unit_category_id: category?.work_unit_category_id ?? null,
        work_unit_subcategory_id: category?.work_unit_subcategory_id ?? null,
        protocol_id: protocol?.protocol_id ?? null,
      })
      .where('work_unit_id', '=', a.workUnitId)
      .execute();
    const units = await portal.db.selectFrom('work_unit').select(['work_unit_id', 'public_work_unit_id']).execute();
    expect(units.length).toBeGreaterThan(10);
    for (const unit of units) {
      const expected = await workUnitFromRows(unit.work_unit_id);
      for (const id of [unit.work_unit_id, unit.public_work_unit_id.toUpperCase()]) {
        const answer = await portal.as('admin', { method: 'GET', url: `/v1/workunits/${id}` });
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(workUnitSchema.parse(answer.json())).toEqual(expected);
        expect(answer.json()).toEqual(expected);
      }
    }
    const named = await portal.as('admin', { method: 'GET', url: `/v1/workunits/${a.workUnitId}` });
    expect(named.json<WorkUnit>().relations).toHaveLength(2);
    expect(named.json<WorkUnit>().protocol).toEqual(
      protocol ? expect.objectContaining({ protocolId: protocol.protocol_id }) : null,
    );
  });

  it('answers 404 for a unit of another tenant or none, by number or GUID, and 400 for an id that is neither', async () => {
    const fabrikam = await portal.db
      .selectFrom('work_unit')
      .select(['work_unit_id', 'public_work_unit_id'])
      .where('tenant_id', '=', DEMO.fabrikam)
      .executeTakeFirstOrThrow();
    for (const id of [
      fabrikam.work_unit_id,
      fabrikam.public_work_unit_id,
      987_654_321,
      '00000000-0000-4000-8000-0000918273fe',
    ]) {
      const answer = await portal.as('operator', { method: 'GET', url: `/v1/workunits/${id}` });
      expect(answer.statusCode, String(id)).toBe(404);
      expect(answer.json()).toEqual({ message: 'The work unit was not found.' });
    }
    for (const id of ['not-an-id', '1.5', '2147483648']) {
      const refused = await portal.as('operator', { method: 'GET', url: `/v1/workunits/${id}` });
      expect(refused.statusCode, id).toBe(400);
      expect(JSON.stringify(refused.json()), id).toContain(ID_PARAM_MESSAGE);
    }
  });
});

describe('change request approval', () => {
  it('lets approver 1 approve and approver 2 decline, which cancels the change', async () => {
    const cr = await create('planner', changeRequest());
    const approved = await patch('operator', cr, { approved1By: 'operator@cfs.example' });
    expect(approved.statusCode).toBe(200);
    const declined = await patch('admin', approved.json<WorkUnit>(), {
      declined2By: 'admin@cfs.example',
      decision2Notes: 'Not during the freeze',
    });
    expect(declined.json()).toMatchObject({
      approved1By: 'operator@cfs.example',
      declined2By: 'admin@cfs.example',
      decision2Notes: 'Not during the freeze',
      stateId: WORK_UNIT_STATES.Canceled,
    });
  });

  it('refuses a decision by anyone but the named approver with "Authenticated user does not match {approver}"', async () => {
    const cr = await create('planner', changeRequest());
    const response = await patch('admin', cr, { approved1By: 'admin@cfs.example' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Authenticated user does not match operator@cfs.example');
    const forged = await patch('operator', cr, { approved1By: 'admin@cfs.example' });
    expect(forged.json().message).toBe('Authenticated user does not match operator@cfs.example');
  });

  it('answers the approver check for the signed-in user', async () => {
    const approver = { userName: `approver-${unique()}`, displayName: `Approver ${unique()}` };
    await createUserIn(portal, approver.userName, BASE_ROLES.Operator?.permissions ?? [], DEMO.contoso, {
      displayName: approver.displayName,
    });
    // The address in other letters is still the signed-in user's.
    const address = `${approver.userName.toUpperCase()}@cfs.example`;
    const mine = await portal.as(approver.userName, {
      method: 'GET',
      url: `/api/generallookup/approval?approverId=${encodeURIComponent(address)}`,
    });
    expect(mine.json()).toEqual({ approverId: address, isCurrentUser: true, displayName: approver.displayName });
    const theirs = await portal.as(approver.userName, {
      method: 'GET',
      url: '/api/generallookup/approval?approverId=admin@cfs.example',
    });
    expect(theirs.json().isCurrentUser).toBe(false);
  });
});

describe('notes', () => {
  it('adds internal and external notes; externalNotes lists only the external ones', async () => {
    const unit = await create('operator', incident());
    const internal = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/workunitnotes',
      payload: { workUnitId: unit.workUnitId, detail: 'Checked the logs', isExternalNote: false },
    });
    expect(internal.json()).toMatchObject({
      detail: 'Checked the logs',
      historyType: null,
      isExternalNote: false,
      createdBy: 'operator',
    });
    await portal.as('operator', {
      method: 'PUT',
      url: '/v1/workunitnotes',
      payload: { workUnitId: unit.workUnitId, detail: 'We are on it', isExternalNote: true },
    });
    const external = await portal.as('operator', {
      method: 'GET',
      url: `/v1/workunits/${unit.workUnitId}/externalNotes`,
    });
    expect(external.json().value.map((n: { detail: string }) => n.detail)).toEqual(['We are on it']);
  });

  it('refuses an empty note and one over 4000 characters', async () => {
    const unit = await create('operator', incident());
    const empty = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/workunitnotes',
      payload: { workUnitId: unit.workUnitId, detail: ' ' },
    });
    expect(empty.json().errors.detail).toEqual(['Please enter a note.']);
    const long = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/workunitnotes',
      payload: { workUnitId: unit.workUnitId, detail: 'x'.repeat(4001) },
    });
    expect(long.json().errors.detail).toEqual(['Must be 4000 characters or fewer.']);
  });

  it('records a call back request', async () => {
    const caller = { userName: `caller-${unique()}`, displayName: `Caller ${unique()}` };
    await createUserIn(portal, caller.userName, BASE_ROLES.Operator?.permissions ?? [], DEMO.contoso, {
      displayName: caller.displayName,
    });
    const unit = await create(caller.userName, incident({ stakeHolderPhoneNumber: '+1 555 0100' }));
    const response = await portal.as(caller.userName, {
      method: 'POST',
      url: `/v1/workunitnotes/callme/${unit.workUnitId}`,
    });
    expect(response.json().detail).toBe(`${caller.displayName} asked to be called back at +1 555 0100.`);
  });
});

describe('the list', () => {
  it('answers the default query: New incidents, severity ascending then newest first', async () => {
    const response = await portal.as('admin', {
      method: 'GET',
      url: `/v1/workunits?$count=true&$top=50&$orderby=severityId asc,created desc&$filter=stateId in (1) and workUnitTypeId eq 1&$expand=tenant,workUnitType`,
    });
    const rows = response.json<{ '@odata.count': number; value: WorkUnit[] }>().value;
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.every((row) => row.stateId === 1 && row.workUnitTypeId === 1)).toBe(true);
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      expect(a.severityId < b.severityId || (a.severityId === b.severityId && a.created >= b.created)).toBe(true);
    }
    expect(rows[0]?.tenant?.name).toBeDefined();
  });

  it('searches by id and sorts by tenant name', async () => {
    const unit = await create('operator', incident({ title: 'Find me by number' }));
    const byId = await portal.as('operator', {
      method: 'GET',
      url: `/v1/workunits?$filter=workUnitId eq ${unit.workUnitId} or contains(title,'${unit.workUnitId}')`,
    });
    expect(byId.json().value.map((r: WorkUnit) => r.title)).toEqual(['Find me by number']);
    const tag = unique();
    const early = await createTenantAs(portal, 'admin', { name: `Early ${tag}` });
    const late = await createTenantAs(portal, 'admin', { name: `Late ${tag}` });
    for (const tenant of [late, early, late]) await createWorkUnitAs(portal, 'admin', tenant.tenantId);
    const sorted = await portal.as('admin', {
      method: 'GET',
      url: `/v1/workunits?$filter=tenantId eq ${early.tenantId} or tenantId eq ${late.tenantId}&$orderby=tenant/name desc&$expand=tenant`,
    });
    expect(sorted.json().value.map((row: WorkUnit) => row.tenant?.name)).toEqual([late.name, late.name, early.name]);
  });

  it('exports the page as workunits.csv', async () => {
    const tenant = await createStaffedTenant(portal);
    for (let i = 0; i < 6; i += 1) await createWorkUnitAs(portal, 'admin', tenant.tenantId);
    const response = await portal.as(tenant.userName, {
      method: 'GET',
      url: '/v1/workunits/Export()?$top=5&$orderby=workUnitId asc&$expand=tenant&$select=workUnitId,title,stateId',
    });
    expect(response.headers['content-disposition']).toBe('attachment; filename="workunits.csv"');
    const [header, ...rows] = response.body.trim().split('\n');
    expect(header).toBe('workUnitId,title,stateId,tenant/tenantId,tenant/name,tenant/internalNotificationEmailAddress');
    expect(rows).toHaveLength(5);
    expect(rows.every((row) => row.includes(tenant.name))).toBe(true);
  });
});

describe('CSV export as the grid shows it', () => {
  const exportUrl = (filter: string, columns?: unknown) =>
    `/v1/workunits/Export()?$filter=${encodeURIComponent(filter)}${columns === undefined ? '' : `&columns=${encodeURIComponent(typeof columns === 'string' ? columns : JSON.stringify(columns))}`}`;

  it('writes the named columns in their order under their titles: enums by name, dates in ISO 8601, related names by path', async () => {
    const staff = await createStaffedTenant(portal);
    const unit = await create(
      staff.userName,
      incident({ tenantId: staff.tenantId, title: 'Exported as shown', severityId: 1 }),
    );
    const acknowledged = (
      await patch(staff.userName, unit, {
        stateId: WORK_UNIT_STATES.Acknowledged,
        assignedTo: `${staff.userName}@cfs.example`,
      })
    ).json<WorkUnit>();
    expect(
      (await patch(staff.userName, acknowledged, { stateId: WORK_UNIT_STATES.InProgress, assignedTo: null }))
        .statusCode,
    ).toBe(200);
    const columns = [
      { field: 'title', title: 'Title' },
      { field: 'workUnitId', title: 'ID' },
      { field: 'severityId', title: 'Severity' },
      { field: 'stateId', title: 'State' },
      { field: 'tenant/name', title: 'Tenant' },
      { field: 'created', title: 'Created' },
      { field: 'assignedTo', title: 'Assigned To' },
    ];
    const response = await portal.as(staff.userName, {
      method: 'GET',
      url: exportUrl(`workUnitId eq ${unit.workUnitId}`, columns),
    });
    expect(response.statusCode).toBe(200);
    const [header, line, ...rest] = response.body.trim().split('\n');
    expect(header).toBe('Title,ID,Severity,State,Tenant,Created,Assigned To');
    expect(rest).toEqual([]);
    const cells = line?.split(',') ?? [];
    expect(cells.slice(0, 5)).toEqual([
      'Exported as shown',
      String(unit.workUnitId),
      'Sev1',
      'In Progress',
      staff.name,
    ]);
    expect(cells[5]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(cells[5] ?? '').getTime()).toBe(new Date(unit.created).getTime());
    expect(cells[6]).toBe('');
  });

  it('writes enums by name also without columns, under the API field names', async () => {
    const unit = await create('operator', incident({ severityId: 0 }));
    const response = await portal.as('operator', {
      method: 'GET',
      url: `${exportUrl(`workUnitId eq ${unit.workUnitId}`)}&$select=workUnitId,severityId,stateId,created`,
    });
    const [header, line] = response.body.trim().split('\n');
    expect(header).toBe('workUnitId,severityId,stateId,created');
    expect(line).toMatch(new RegExp(`^${unit.workUnitId},Sev0,New,\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z$`));
  });

  it('escapes a column title a spreadsheet would run as a formula', async () => {
    const unit = await create('operator', incident());
    const response = await portal.as('operator', {
      method: 'GET',
      url: exportUrl(`workUnitId eq ${unit.workUnitId}`, [{ field: 'workUnitId', title: '=1+1' }]),
    });
    expect(response.body.split('\n')[0]).toBe("'=1+1");
  });

  it('refuses columns that are no JSON, name unknown fields or relations, or go past the limits, with 400 naming the problem', async () => {
    const filter = 'workUnitId eq 1';
    const cases: [unknown, RegExp][] = [
      ['[{"field":', /columns must be JSON/],
      [[], /Invalid columns/],
      [[{ field: 'nosuchfield', title: 'X' }], /Unknown field 'nosuchfield' in columns/],
      [[{ field: 'tenant', title: 'Tenant' }], /'tenant' is a relation, not a field, in columns/],
      [[{ field: 'tenant/nosuch', title: 'X' }], /Unknown field 'tenant\/nosuch' in columns/],
      [[{ field: 'title; drop', title: 'X' }], /Invalid columns at 0.field/],
      [[{ field: 'title', title: '' }], /Invalid columns at 0.title/],
      [[{ field: 'title', title: 'x'.repeat(101) }], /Invalid columns at 0.title/],
      [Array.from({ length: 51 }, () => ({ field: 'title', title: 'Title' })), /Invalid columns/],
    ];
    for (const [columns, message] of cases) {
      const response = await portal.as('operator', { method: 'GET', url: exportUrl(filter, columns) });
      expect(response.statusCode, JSON.stringify(columns).slice(0, 60)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it('reads a related name only within the caller’s tenants', async () => {
    const unit = await create('operator', incident());
    const response = await portal.as('operator2', {
      method: 'GET',
      url: exportUrl(`workUnitId eq ${unit.workUnitId}`, [{ field: 'tenant/name', title: 'Tenant' }]),
    });
    expect(response.body.trim()).toBe('Tenant');
  });
});

describe('tenant isolation', () => {
  it('answers 404 to operator2 for every call on a Contoso work unit, and lists none of them', async () => {
    const unit = await create('operator', incident({ title: 'Contoso confidential' }));
    const probes: [string, string, unknown?][] = [
      ['GET', `/v1/workunits(${unit.workUnitId})`],
      ['GET', `/v1/workunits(${unit.publicWorkUnitId})`],
      ['PATCH', `/v1/workunits/${unit.workUnitId}`, [{ op: 'replace', path: '/title', value: 'hijacked' }]],
      ['GET', `/v1/workunits/GetWorkUnitHistoryRecords(workUnitId=${unit.workUnitId})`],
      ['GET', `/v1/workunits/${unit.workUnitId}/externalNotes`],
      ['PUT', '/v1/workunitnotes', { workUnitId: unit.workUnitId, detail: 'planted' }],
      ['POST', `/v1/workunitnotes/callme/${unit.workUnitId}`],
    ];
    for (const [method, url, payload] of probes) {
      const response = await portal.as('operator2', {
        method: method as 'GET',
        url,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const created = await portal.as('operator2', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: incident({ title: 'Planted in Contoso' }),
    });
    expect(created.statusCode).toBe(400);
    const list = await portal.as('operator2', {
      method: 'GET',
      url: `/v1/workunits?$filter=tenantId eq ${DEMO.contoso}&$count=true`,
    });
    expect(list.json()).toEqual({ '@odata.count': 0, value: [] });
    const exported = await portal.as('operator2', {
      method: 'GET',
      url: "/v1/workunits/Export()?$filter=contains(title,'Contoso confidential')",
    });
    // The header line only.
    expect(exported.body.trim().split('\n')).toEqual([expect.stringMatching(/^workUnitId,/)]);
  });

  it('does not let an edit move a unit into a tenant the editor may not touch', async () => {
    const unit = await create('operator', incident());
    const response = await patch('operator', unit, { tenantId: DEMO.fabrikam });
    expect(response.statusCode).toBe(400);
  });

  it('answers 403 to the end user on the staff list', async () => {
    expect((await portal.as('enduser', { method: 'GET', url: '/v1/workunits' })).statusCode).toBe(403);
  });
});

describe('people', () => {
  it('finds people who share a tenant, shown by name and mail, and groups', async () => {
    const people = await portal.as('operator', { method: 'GET', url: '/api/people?searchTerm=o' });
    const mails = people.json<{ mail: string }[]>().map((p) => p.mail);
    expect(mails).toContain('operator@cfs.example');
    expect(mails).not.toContain('operator2@cfs.example');
    const group = await createDirectoryGroup(portal, DEMO.contoso, { displayName: `Service Desk ${unique()}` });
    const term = group.displayName.slice(-8);
    const groups = await portal.as('operator', { method: 'GET', url: `/api/peopleandgroups?searchTerm=${term}` });
    expect(groups.json()).toContainEqual(group);
    const other = await portal.as('operator2', { method: 'GET', url: `/api/peopleandgroups?searchTerm=${term}` });
    expect(other.json()).toEqual([]);
  });

  it('names the people and groups stored by user name or mail, leaving out whom the caller does not share a tenant with', async () => {
    const group = await createDirectoryGroup(portal, DEMO.contoso);
    const theirs = await createDirectoryGroup(portal, DEMO.fabrikam);
    const names = await portal.as('operator', {
      method: 'GET',
      url: `/api/people/names?keys=operator,Operator@CFS.example,${group.mail},operator2@cfs.example,${theirs.mail},nobody`,
    });
    expect(names.statusCode).toBe(200);
    const byKey = new Map(
      names.json<{ key: string; displayName: string; mail: string | null }[]>().map((name) => [name.key, name]),
    );
    expect(byKey.get('operator')?.mail).toBe('operator@cfs.example');
    expect(byKey.get('operator@cfs.example')?.displayName).toBe(byKey.get('operator')?.displayName);
    expect(byKey.get(group.mail)).toEqual({ key: group.mail, displayName: group.displayName, mail: group.mail });
    expect([...byKey.keys()].sort()).toEqual([group.mail, 'operator', 'operator@cfs.example'].sort());
  });
});

describe('review fixes: approvals, bad input, scope', () => {
  it('refuses naming oneself approver and approving in one edit, and a decision sent with a new unit', async () => {
    const cr = await create(
      'planner',
      changeRequest({ approver1: 'admin@cfs.example', approver2: 'operator2@cfs.example' }),
    );
    const selfApproval = await patch('operator', cr, {
      approver1: 'operator@cfs.example',
      approved1By: 'operator@cfs.example',
    });
    expect(selfApproval.statusCode).toBe(400);
    expect(selfApproval.json().errors).toEqual({ approver1: [WORK_UNIT_MESSAGES.selfApprover] });
    const onCreate = await portal.as('planner', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: changeRequest({ approved1By: 'operator@cfs.example' }),
    });
    expect(onCreate.statusCode).toBe(400);
  });

  it('refuses an editor naming themselves approver, so they cannot approve in the next edit, and records who named each approver', async () => {
    const cr = await create(
      'planner',
      changeRequest({ approver1: 'admin@cfs.example', approver2: 'operator2@cfs.example' }),
    );
    const named = await patch('operator', cr, { approver1: 'operator@cfs.example' });
    expect(named.statusCode).toBe(400);
    expect(named.json().errors).toEqual({ approver1: [WORK_UNIT_MESSAGES.selfApprover] });
    const onCreate = await portal.as('operator', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: changeRequest({ approver1: 'operator@cfs.example' }),
    });
    expect(onCreate.json().errors).toEqual({ approver1: [WORK_UNIT_MESSAGES.selfApprover] });
    // Someone else may name them; the history says who did.
    const byAdmin = await patch('admin', cr, { approver1: 'operator@cfs.example' });
    expect(byAdmin.statusCode).toBe(200);
    const history = await portal.as('admin', {
      method: 'GET',
      url: `/v1/workunits/GetWorkUnitHistoryRecords?workUnitId=${cr.workUnitId}`,
    });
    expect(history.json<{ value: { detail: string; createdBy: string }[] }>().value).toContainEqual(
      expect.objectContaining({ detail: expect.stringContaining('Approver 1'), createdBy: 'admin' }),
    );
  });

  it('refuses one person named as both approvers with "Approver 2 must be someone other than Approver 1." on create and on patch', async () => {
    const onCreate = await portal.as('planner', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: changeRequest({ approver1: 'admin@cfs.example', approver2: ' ADMIN@cfs.example' }),
    });
    expect(onCreate.statusCode).toBe(400);
    expect(onCreate.json().errors).toEqual({ approver2: [WORK_UNIT_MESSAGES.sameApprover] });
    const cr = await create('planner', changeRequest());
    // Changing only one approver to the other is the same refusal, and so is moving approver 2 into approver 1.
    const second = await patch('planner', cr, { approver2: 'operator@cfs.example' });
    expect(second.statusCode).toBe(400);
    expect(second.json().errors).toEqual({ approver2: [WORK_UNIT_MESSAGES.sameApprover] });
    const first = await patch('planner', cr, { approver1: 'Admin@cfs.example' });
    expect(first.statusCode).toBe(400);
    expect(first.json().errors).toEqual({ approver2: [WORK_UNIT_MESSAGES.sameApprover] });
    const unchanged = (
      await portal.as('planner', { method: 'GET', url: `/v1/workunits(${cr.workUnitId})` })
    ).json<WorkUnit>();
    expect(unchanged).toMatchObject({ approver1: 'operator@cfs.example', approver2: 'admin@cfs.example' });
  });

  it('gives no second approval to a person named as both approvers of a unit stored that way', async () => {
    const cr = await create('planner', changeRequest());
    // A unit written before the rule: one person in both places.
    await portal.db
      .updateTable('work_unit')
      .set({ approver2: 'operator@cfs.example' })
      .where('work_unit_id', '=', cr.workUnitId)
      .execute();
    const stored = (
      await portal.as('operator', { method: 'GET', url: `/v1/workunits(${cr.workUnitId})` })
    ).json<WorkUnit>();
    const both = await patch('operator', stored, {
      approved1By: 'operator@cfs.example',
      approved2By: 'operator@cfs.example',
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().errors).toEqual({ approver2: [WORK_UNIT_MESSAGES.sameApprover] });
    const one = await patch('operator', stored, { approved1By: 'operator@cfs.example' });
    expect(one.statusCode).toBe(400);
    const after = await portal.db
      .selectFrom('work_unit')
      .select(['approved1_by', 'approved2_by'])
      .where('work_unit_id', '=', cr.workUnitId)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ approved1_by: null, approved2_by: null });
  });

  it('starts a new approver undecided when the approver changes', async () => {
    const cr = await create('planner', changeRequest());
    const approved = (await patch('operator', cr, { approved1By: 'operator@cfs.example' })).json<WorkUnit>();
    const reassigned = await patch('operator', approved, { approver1: 'operator2@cfs.example' });
    expect(reassigned.json()).toMatchObject({ approver1: 'operator2@cfs.example', approved1By: null });
  });

  it.each([
    ['an id beyond the integer range', { workUnitCategoryId: 99_999_999_999 }],
    ['a NUL character in the title', { title: 'Broken \u0000 title' }],
  ])('answers 400, not 500, to %s', async (_name, overrides) => {
    const response = await portal.as('operator', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: incident(overrides),
    });
    expect(response.statusCode).toBe(400);
  });

  it('answers 400 to ids beyond the integer range in paths', async () => {
    expect((await portal.as('operator', { method: 'GET', url: '/v1/workunits(99999999999)' })).statusCode).toBe(400);
    expect(
      (await portal.as('admin', { method: 'POST', url: '/v1/workunittypes/99999999999', payload: { name: 'x' } }))
        .statusCode,
    ).toBe(400);
  });

  it('accepts GUIDs in upper case', async () => {
    const unit = await create('operator', incident({ tenantId: DEMO.contoso.toUpperCase() }));
    expect(unit.tenantId).toBe(DEMO.contoso);
    expect(
      (await portal.as('operator', { method: 'GET', url: `/v1/workunits(${unit.publicWorkUnitId.toUpperCase()})` }))
        .statusCode,
    ).toBe(200);
  });

  it('writes nothing of a refused edit: no history record, no modified stamp', async () => {
    const unit = await create('operator', incident());
    const other = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/workunitcategories',
      payload: { tenantId: DEMO.fabrikam, name: 'Fabrikam only', workUnitTypeId: 1 },
    });
    const refused = await patch('operator', unit, {
      title: 'Renamed',
      workUnitCategoryId: other.json<{ workUnitCategoryId: number }>().workUnitCategoryId,
    });
    expect(refused.statusCode).toBe(400);
    const stored = (
      await portal.as('operator', { method: 'GET', url: `/v1/workunits(${unit.workUnitId})` })
    ).json<WorkUnit>();
    expect(stored).toMatchObject({ title: unit.title, modified: unit.modified });
    const history = await portal.as('operator', {
      method: 'GET',
      url: `/v1/workunits/GetWorkUnitHistoryRecords(workUnitId=${unit.workUnitId})`,
    });
    expect(history.json().value).toHaveLength(1);
  });

  it('writes nothing for a patch that changes nothing', async () => {
    const unit = await create('operator', incident());
    const response = await portal.as('operator', {
      method: 'PATCH',
      url: `/v1/workunits/${unit.workUnitId}`,
      payload: [{ op: 'test', path: '/title', value: unit.title }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().modified).toBe(unit.modified);
    const events = await portal.db
      .selectFrom('work_unit_event')
      .select('event_type_id')
      .where('work_unit_id', '=', unit.workUnitId)
      .execute();
    expect(events).toHaveLength(1);
  });

  it('does not name people of other tenants to the approver check', async () => {
    const probe = await portal.as('operator2', {
      method: 'GET',
      url: '/api/generallookup/approval?approverId=operator@cfs.example',
    });
    expect(probe.json()).toEqual({ approverId: 'operator@cfs.example', isCurrentUser: false, displayName: null });
  });

  it('lets an end user ask for a call back on their own request only', async () => {
    const theirs = await create('operator', incident({ stakeHolderEmailAddress: 'enduser@cfs.example' }));
    const someoneElses = await create('operator', incident());
    expect(
      (await portal.as('enduser', { method: 'POST', url: `/v1/workunitnotes/callme/${theirs.workUnitId}` })).statusCode,
    ).toBe(200);
    expect(
      (await portal.as('enduser', { method: 'POST', url: `/v1/workunitnotes/callme/${someoneElses.workUnitId}` }))
        .statusCode,
    ).toBe(404);
  });

  it('escapes exported cells a spreadsheet would run as formulas', async () => {
    const unit = await create('operator', incident({ title: '=HYPERLINK("http://x")' }));
    const csv = await portal.as('operator', {
      method: 'GET',
      url: `/v1/workunits/Export()?$filter=workUnitId eq ${unit.workUnitId}&$select=workUnitId,title`,
    });
    expect(csv.body).toContain(`${unit.workUnitId},"'=HYPERLINK(""http://x"")"`);
  });

  it('escapes formula cells hidden behind leading spaces or a line break', async () => {
    const spaced = await create('operator', incident({ description: '  =SUM(A1)', resolution: '\n@cmd' }));
    const csv = await portal.as('operator', {
      method: 'GET',
      url: `/v1/workunits/Export()?$filter=workUnitId eq ${spaced.workUnitId}&$select=workUnitId,description,resolution`,
    });
    expect(csv.body).toContain(`${spaced.workUnitId},'  =SUM(A1),"'\n@cmd"`);
  });
});
