import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_COLORS, BLOCK_TYPES } from '@cfs/contracts/monitoring';
import { ruleMatchesResource } from '../src/areas/rulematches/resource.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import { buildListSql, executeListStatement } from '../src/odata/list-query-sql.js';
import { parseListQuery } from '../src/odata/list-query.js';
import { createBlockAs, createStaffedTenant, createSubscriptionAs, createTokenAs } from './factories.js';
import { insertDevice } from './fleet-factories.js';
import { auditTrail, createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
let contosoToken: string;
beforeAll(async () => {
  portal = await createTestPortal();
  contosoToken = (await createTokenAs(portal, 'admin', DEMO.contoso)).generatedToken;
});
afterAll(async () => {
  await portal?.close();
});

type BlockRow = {
  blockId: string;
  name: string;
  tenantId: string;
  subscriptionId: string;
  blockTypeId: number;
  description: string | null;
  createdBy: string | null;
  entityColor?: { color: string } | null;
  tenant?: { name: string } | null;
};
const list = async (user: string, query = '') => {
  const response = await portal.as(user, { method: 'GET', url: `/v1/blocks?$count=true${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ '@odata.count': number; value: BlockRow[] }>();
};
const create = (user: string, payload: Record<string, unknown>) =>
  portal.as(user, { method: 'PUT', url: '/v1/blocks', payload });
const valid = (extra: Record<string, unknown> = {}) => ({
  blockId: randomUUID(),
  subscriptionId: DEMO.contosoProduction,
  name: 'Lab sensor',
  description: 'Temperature',
  blockTypeId: BLOCK_TYPES.numeric,
  ...extra,
});

function post(payload: unknown) {
  return portal.app.inject({
    method: 'POST',
    url: '/v1/packets',
    payload: payload as object,
    headers: { authorization: `Bearer ${contosoToken}` },
  });
}

describe('the blocks list', () => {
  it("lists the tenant's blocks by name with their entity's colour, never another tenant's", async () => {
    const tenant = await createStaffedTenant(portal);
    const make = (name: string) => createBlockAs(portal, 'admin', tenant.subscriptionId, { name });
    const health = await make('Health');
    const cpu = await make('CPU');
    const heartbeat = await make('Heartbeat');
    // What a rule's set-colour action leaves on an entity.
    await portal.db
      .insertInto('entity_color')
      .values({ entity_id: health.blockId, tenant_id: tenant.tenantId, color: BLOCK_COLORS.Green })
      .execute();
    const own = await list(tenant.userName, '&$expand=entityColor,tenant');
    expect(own.value.map((row) => row.name)).toEqual(['CPU', 'Health', 'Heartbeat']);
    expect(own.value.find((row) => row.blockId === health.blockId)?.entityColor).toEqual({ color: BLOCK_COLORS.Green });
    expect(own.value.find((row) => row.blockId === health.blockId)?.tenant?.name).toBe(tenant.name);
    expect(own.value.find((row) => row.blockId === cpu.blockId)?.entityColor).toBeNull();
    const ids = [health.blockId, cpu.blockId, heartbeat.blockId];
    expect((await list('operator')).value.filter((row) => ids.includes(row.blockId))).toEqual([]);
    expect((await list((await createStaffedTenant(portal)).userName)).value).toEqual([]);
    // Every row carries its colour, asked for or not (spec 002 §3 Block entityColor.color).
    const plain = await list(tenant.userName, '&$select=blockId,name');
    expect(plain.value.find((row) => row.blockId === health.blockId)).toEqual({
      blockId: health.blockId,
      name: 'Health',
      entityColor: { color: BLOCK_COLORS.Green },
    });
  });

  it('answers a colour changed since the last poll, never a stale 304', async () => {
    const block = await createBlockAs(portal, 'operator', DEMO.contosoProduction);
    const url = `/v1/blocks?$expand=entityColor&$filter=blockId eq ${block.blockId}`;
    const first = await portal.as('operator', { method: 'GET', url });
    expect(first.json<{ value: BlockRow[] }>().value[0]?.entityColor).toBeNull();
    expect(first.headers.etag).toBeDefined();
    await portal.db
      .insertInto('entity_color')
      .values({ entity_id: block.blockId, tenant_id: DEMO.contoso, color: BLOCK_COLORS.Orange })
      .execute();
    // The change counters read by then (a write elsewhere is seen within their reading interval).
    await portal.runtime.changes.sync();
    const tag = first.headers.etag;
    const again = await portal.as('operator', {
      method: 'GET',
      url,
      headers: tag ? { 'if-none-match': String(tag) } : {},
    });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ value: BlockRow[] }>().value[0]?.entityColor).toEqual({ color: BLOCK_COLORS.Orange });
    // Unchanged since: the poll is answered 304 without its query.
    const unchanged = await portal.as('operator', {
      method: 'GET',
      url,
      headers: { 'if-none-match': String(again.headers.etag) },
    });
    expect(unchanged.statusCode).toBe(304);
  });

  it('filters by subscription and by tenant', async () => {
    const tenant = await createStaffedTenant(portal);
    const empty = await createSubscriptionAs(portal, 'admin', tenant.tenantId);
    for (let i = 0; i < 3; i += 1) await createBlockAs(portal, 'admin', tenant.subscriptionId);
    const other = await createStaffedTenant(portal);
    expect((await list('admin', `&$filter=subscriptionId eq ${tenant.subscriptionId}`))['@odata.count']).toBe(3);
    expect((await list('admin', `&$filter=subscriptionId eq ${empty.subscriptionId}`))['@odata.count']).toBe(0);
    expect((await list('admin', `&$filter=tenantId eq ${tenant.tenantId}`))['@odata.count']).toBe(3);
    expect((await list('admin', `&$filter=tenantId eq ${other.tenantId}`))['@odata.count']).toBe(0);
  });
});

describe('creating, editing and deleting a block', () => {
  it('creates a block in the subscription’s tenant, read back and recorded in the change history', async () => {
    const input = valid({ blockId: randomUUID().toUpperCase() });
    const response = await create('operator', input);
    expect(response.statusCode, response.body).toBe(200);
    const block = response.json<BlockRow>();
    expect(block).toMatchObject({
      blockId: input.blockId.toLowerCase(),
      tenantId: DEMO.contoso,
      subscriptionId: DEMO.contosoProduction,
      name: 'Lab sensor',
      blockTypeId: 1,
      createdBy: 'operator',
      entityColor: null,
    });
    const read = await portal.as('operator', { method: 'GET', url: `/v1/blocks/${block.blockId}` });
    expect(read.json()).toMatchObject({ name: 'Lab sensor', description: 'Temperature' });
    const audit = await auditTrail(portal.db, 'block', block.blockId);
    expect(audit.map((row) => row.action)).toEqual(['create']);
  });

  it.each([
    [
      'a version 1 GUID',
      { blockId: 'c232ab00-9414-11ec-b3c8-9f6bdeced846' },
      'blockId',
      'Please enter a valid v4 or v5 GUID',
    ],
    ['text that is no GUID', { blockId: 'not-a-guid' }, 'blockId', 'Please enter a valid v4 or v5 GUID'],
    ['no block id', { blockId: undefined }, 'blockId', 'Please enter a valid v4 or v5 GUID'],
    ['an empty name', { name: '  ' }, 'name', 'Name is required'],
    ['no type', { blockTypeId: undefined }, 'blockTypeId', 'Type is required'],
    [
      'the deviceHeartbeat type',
      { blockTypeId: BLOCK_TYPES.deviceHeartbeat },
      'blockTypeId',
      'Device heartbeat blocks cannot be created; please choose another type.',
    ],
    ['no subscription', { subscriptionId: undefined }, 'subscriptionId', 'Please choose a subscription.'],
  ])('refuses %s with the form’s message', async (_case, change, field, message) => {
    const response = await create('operator', valid(change));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('accepts a version 5 GUID', async () => {
    const response = await create(
      'operator',
      valid({ blockId: '2ed6657d-e927-568b-95e1-2665a8aea6a2', blockTypeId: BLOCK_TYPES.smallText }),
    );
    expect(response.statusCode, response.body).toBe(200);
  });

  it('refuses a Block ID it cannot take with one text, the same for its own block as for any entity of another tenant', async () => {
    const unavailable = {
      message: 'This Block ID cannot be used; please enter another.',
      errors: { blockId: ['This Block ID cannot be used; please enter another.'] },
    };
    const fabrikamToken = (await createTokenAs(portal, 'admin', DEMO.fabrikam)).generatedToken;
    const fabrikamBlock = valid({ subscriptionId: DEMO.fabrikamProduction });
    expect((await create('operator2', fabrikamBlock)).statusCode).toBe(200);
    const fabrikamDevice = await insertDevice(portal, DEMO.fabrikam, DEMO.fabrikamProduction);
    const fabrikamReported = randomUUID();
    const report = (token: string, entityId: string) =>
      portal.app.inject({
        method: 'POST',
        url: '/v1/packets',
        payload: { entityId, timestamp: new Date().toISOString(), message: { Value: 1 } },
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await report(fabrikamToken, fabrikamReported)).statusCode).toBe(200);
    const own = await createBlockAs(portal, 'operator', DEMO.contosoProduction);
    const answers = [];
    for (const blockId of [own.blockId, fabrikamBlock.blockId as string, fabrikamDevice.device_id, fabrikamReported]) {
      const response = await create('operator', valid({ blockId }));
      answers.push({ status: response.statusCode, body: response.json<unknown>() });
    }
    expect(answers).toEqual(Array.from({ length: 4 }, () => ({ status: 400, body: unavailable })));
    // Nothing was taken from Fabrikam by asking.
    expect((await report(fabrikamToken, fabrikamBlock.blockId as string)).statusCode).toBe(200);
    expect((await report(fabrikamToken, fabrikamReported)).statusCode).toBe(200);
    // An id nobody holds, and one only Contoso's own packets reported, are Contoso's to take.
    expect((await create('operator', valid())).statusCode).toBe(200);
    const reportedByContoso = randomUUID();
    expect((await report(contosoToken, reportedByContoso)).statusCode).toBe(200);
    expect((await create('operator', valid({ blockId: reportedByContoso }))).statusCode).toBe(200);
  });

  it("makes the creating tenant the entity's owner, so another tenant's packets for it are refused", async () => {
    const block = (await create('operator', valid())).json<BlockRow>();
    const fabrikamToken = (await createTokenAs(portal, 'admin', DEMO.fabrikam)).generatedToken;
    const intruder = await portal.app.inject({
      method: 'POST',
      url: '/v1/packets',
      payload: { entityId: block.blockId, timestamp: new Date().toISOString(), message: { Value: 9 } },
      headers: { authorization: `Bearer ${fabrikamToken}` },
    });
    expect(intruder.statusCode).toBe(403);
    expect(
      (await post({ entityId: block.blockId, timestamp: new Date().toISOString(), message: { Value: 1 } })).statusCode,
    ).toBe(200);
    // Deleting the tile leaves the entity its tenant's: the id is Contoso's to use again, never Fabrikam's.
    expect((await portal.as('operator', { method: 'DELETE', url: `/v1/blocks/${block.blockId}` })).statusCode).toBe(
      200,
    );
    expect(
      (await create('operator2', valid({ blockId: block.blockId, subscriptionId: DEMO.fabrikamProduction })))
        .statusCode,
    ).toBe(400);
    expect((await create('operator', valid({ blockId: block.blockId }))).statusCode).toBe(200);
  });

  it("refuses another tenant's subscription, and a tenant that is not the subscription's", async () => {
    const other = await create('operator', valid({ subscriptionId: DEMO.fabrikamProduction }));
    expect(other.statusCode).toBe(400);
    expect(other.json().errors.subscriptionId).toEqual(['Please choose a subscription.']);
    const mismatch = await create('admin', valid({ tenantId: DEMO.fabrikam }));
    expect(mismatch.statusCode).toBe(400);
  });

  it('edits only the name and the description, and names the fields an edit cannot change', async () => {
    const block = (await create('operator', valid())).json<BlockRow>();
    const moved = await portal.as('operator', {
      method: 'POST',
      url: `/v1/blocks/${block.blockId}`,
      payload: { name: 'Renamed', description: '', blockTypeId: 2, subscriptionId: DEMO.contosoStaging },
    });
    expect(moved.statusCode).toBe(400);
    expect(Object.keys(moved.json<{ errors: Record<string, string[]> }>().errors)).toEqual([
      'blockTypeId',
      'subscriptionId',
    ]);
    const response = await portal.as('operator', {
      method: 'POST',
      url: `/v1/blocks/${block.blockId}`,
      payload: { name: 'Renamed', description: '' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Renamed',
      description: null,
      blockTypeId: 1,
      subscriptionId: DEMO.contosoProduction,
    });
    const empty = await portal.as('operator', {
      method: 'POST',
      url: `/v1/blocks/${block.blockId}`,
      payload: { name: '' },
    });
    expect(empty.json().errors.name).toEqual(['Name is required']);
    expect(
      (
        await portal.as('operator2', {
          method: 'POST',
          url: `/v1/blocks/${block.blockId}`,
          payload: { name: 'Taken over' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('deletes a block of the caller’s tenant only', async () => {
    const block = (await create('operator', valid())).json<BlockRow>();
    expect((await portal.as('operator2', { method: 'DELETE', url: `/v1/blocks/${block.blockId}` })).statusCode).toBe(
      404,
    );
    const deleted = await portal.as('operator', { method: 'DELETE', url: `/v1/blocks/${block.blockId}` });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('Block deleted successfully.');
    expect((await portal.as('operator', { method: 'GET', url: `/v1/blocks/${block.blockId}` })).statusCode).toBe(404);
  });
});

describe("a block's history and logs", () => {
  let blockId: string;
  const base = Date.now() - 3 * 3_600_000;
  beforeAll(async () => {
    blockId = (await create('operator', valid())).json<BlockRow>().blockId;
    // 150 packets a minute apart, the newest 30 minutes ago; Value i.
    const packets = Array.from({ length: 150 }, (_, i) => ({
      entityId: blockId,
      timestamp: new Date(base + i * 60_000).toISOString(),
      message: { Value: i, Metrics: { Temperature: i } },
    }));
    const response = await post(packets);
    expect(response.statusCode, response.body).toBe(200);
  });

  const history = (user: string, query: string) =>
    portal.as(user, { method: 'GET', url: `/v1/blocks/${blockId}/history?${query}` });

  it('pages the history 100 at a time, newest first, with the total count', async () => {
    const first = await history('operator', 'pageNumber=1&rowCount=100');
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json<{
      historyItems: { value: number; timestamp: string; receivedTimestamp: string }[];
      totalCount: number;
    }>();
    expect(page1.totalCount).toBe(150);
    expect(page1.historyItems).toHaveLength(100);
    expect(page1.historyItems[0]).toMatchObject({ value: 149, timestamp: new Date(base + 149 * 60_000).toISOString() });
    expect(typeof page1.historyItems[0]?.receivedTimestamp).toBe('string');
    const page2 = (await history('operator', 'pageNumber=2&rowCount=100')).json<{
      historyItems: { value: number }[];
    }>();
    expect(page2.historyItems.map((item) => item.value)).toEqual(Array.from({ length: 50 }, (_, i) => 49 - i));
  });

  it('narrows the history and its count to the range asked for', async () => {
    const from = new Date(base + 100 * 60_000).toISOString();
    const to = new Date(base + 109 * 60_000).toISOString();
    const ranged = (
      await history(
        'operator',
        `pageNumber=1&rowCount=100&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      )
    ).json<{ historyItems: { value: number }[]; totalCount: number }>();
    expect(ranged.totalCount).toBe(10);
    expect(ranged.historyItems.map((item) => item.value)).toEqual([109, 108, 107, 106, 105, 104, 103, 102, 101, 100]);
  });

  it('refuses another page size, a bad page number and a bad date with 400', async () => {
    expect((await history('operator', 'pageNumber=1&rowCount=50')).statusCode).toBe(400);
    expect((await history('operator', 'pageNumber=0&rowCount=100')).statusCode).toBe(400);
    expect((await history('operator', 'pageNumber=1&rowCount=100&from=yesterday')).statusCode).toBe(400);
  });

  it("answers 404 for another tenant's block, and an empty history for a block without packets", async () => {
    expect((await history('operator2', 'pageNumber=1&rowCount=100')).statusCode).toBe(404);
    const quiet = (await create('operator', valid())).json<BlockRow>();
    const empty = await portal.as('operator', {
      method: 'GET',
      url: `/v1/blocks/${quiet.blockId}/history?pageNumber=1&rowCount=100`,
    });
    expect(empty.json()).toEqual({ historyItems: [], totalCount: 0 });
  });

  it('folds the numeric Values of a range into buckets for the chart', async () => {
    const from = new Date(base).toISOString();
    const to = new Date(base + 150 * 60_000).toISOString();
    const response = await portal.as('operator', {
      method: 'GET',
      url: `/v1/blocks/${blockId}/series?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&buckets=15`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const series = response.json<{
      bucketSeconds: number;
      points: { timestamp: string; average: number; minimum: number; maximum: number; count: number }[];
    }>();
    expect(series.bucketSeconds).toBe(600);
    expect(series.points).toHaveLength(15);
    expect(series.points[0]).toMatchObject({ timestamp: from, average: 4.5, minimum: 0, maximum: 9, count: 10 });
    expect(series.points.reduce((sum, point) => sum + point.count, 0)).toBe(150);
    // The Packet drawer reads the same through the entity.
    const entity = await portal.as('operator', {
      method: 'GET',
      url: `/v1/packets/${blockId}/series?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&buckets=15`,
    });
    expect(entity.json()).toEqual(series);
    expect(
      (
        await portal.as('operator2', {
          method: 'GET',
          url: `/v1/packets/${blockId}/series?from=${encodeURIComponent(from)}`,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await portal.as('operator', {
          method: 'GET',
          url: `/v1/blocks/${blockId}/series?from=${encodeURIComponent(from)}&buckets=5000`,
        })
      ).statusCode,
    ).toBe(400);
  });

  it("lists the entity's log entries newest first, with logEntryId, created and detail", async () => {
    await portal.db
      .insertInto('entity_log')
      .values([
        {
          entity_id: blockId,
          tenant_id: DEMO.contoso,
          created: new Date(Date.now() - 60_000),
          detail: 'Colour set to Red by rule Hot',
        },
        {
          entity_id: blockId,
          tenant_id: DEMO.contoso,
          created: new Date(),
          detail: 'Colour set to Green by rule Cool',
        },
      ])
      .execute();
    const response = await portal.as('operator', { method: 'GET', url: `/v1/blocks/${blockId}/logs` });
    expect(response.statusCode).toBe(200);
    const logs = response.json<{ logEntryId: number; created: string; detail: string }[]>();
    expect(logs.map((entry) => entry.detail)).toEqual([
      'Colour set to Green by rule Cool',
      'Colour set to Red by rule Hot',
    ]);
    expect(Object.keys(logs[0]!).sort()).toEqual(['created', 'detail', 'logEntryId']);
    expect((await portal.as('operator2', { method: 'GET', url: `/v1/blocks/${blockId}/logs` })).statusCode).toBe(404);
    const entity = await portal.as('operator', { method: 'GET', url: `/v1/packets/${blockId}/logs` });
    expect(entity.json<{ detail: string }[]>().map((entry) => entry.detail)).toEqual([
      'Colour set to Green by rule Cool',
      'Colour set to Red by rule Hot',
    ]);
    expect((await portal.as('operator2', { method: 'GET', url: `/v1/packets/${blockId}/logs` })).statusCode).toBe(404);
  });
});

describe('rule matches', () => {
  let ruleId: string;
  const subject = randomUUID();
  beforeAll(async () => {
    const rule = await portal.db
      .insertInto('rule')
      .values({
        tenant_id: DEMO.contoso,
        name: 'Hot sensor',
        rule_type_id: 1,
        match_lifetime_seconds: 300,
        conditions: JSON.stringify([{ Type: 0, LeftOperand: 1, Operator: 3, RightOperand: '80' }]),
      })
      .returning('rule_id')
      .executeTakeFirstOrThrow();
    ruleId = rule.rule_id;
    const now = Date.now();
    const match = (i: number, subjectId: string, tenantId: string = DEMO.contoso) => ({
      rule_id: ruleId,
      tenant_id: tenantId,
      subject_id: subjectId,
      label: `Sensor ${i}`,
      match_count: i + 1,
      first_match: new Date(now - 3_600_000),
      last_match: new Date(now - i * 1000),
      // One still active, the others expired.
      expires: new Date(now + (i === 0 ? 300_000 : -i * 60_000)),
      completion_processed: i !== 0,
      created: new Date(now - i * 10_000),
      reason: JSON.stringify({
        conditions: [
          { index: 0, leftOperand: 'Value', operator: 'GreaterThan', rightOperand: '80', seen: String(81 + i) },
        ],
        timestamp: new Date(now).toISOString(),
      }),
    });
    await portal.db
      .insertInto('rule_match')
      .values([
        match(0, subject),
        match(1, subject),
        match(2, subject),
        ...Array.from({ length: 60 }, (_, i) => match(i + 3, randomUUID())),
      ])
      .execute();
  });

  type MatchRow = {
    ruleMatchId: string;
    subjectId: string;
    label: string;
    expires: string;
    created: string;
    matchCount: number;
    reason: { conditions: { seen: string }[] } | null;
    rule?: { ruleId: string; name: string; ruleTypeId: number };
  };
  const matches = async (user: string, query: string) => {
    const response = await portal.as(user, { method: 'GET', url: `/v1/rulematches?$count=true&${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ '@odata.count': number; value: MatchRow[] }>();
  };

  it("lists a subject's matches with their rule, newest first by default", async () => {
    const found = await matches('operator', `$expand=rule&$filter=subjectId eq '${subject}'`);
    expect(found['@odata.count']).toBe(3);
    expect(found.value.map((row) => row.label)).toEqual(['Sensor 0', 'Sensor 1', 'Sensor 2']);
    expect(found.value[0]?.rule).toEqual({ ruleId, name: 'Hot sensor', ruleTypeId: 1 });
    expect(found.value[0]?.reason?.conditions[0]?.seen).toBe('81');
  });

  it('answers 50 rows a page by default, and the rule drawer’s 100 by expires descending', async () => {
    expect((await matches('operator', `$filter=ruleId eq ${ruleId}`)).value).toHaveLength(50);
    const drawer = await matches('operator', `$filter=ruleId eq ${ruleId}&$top=100&$orderby=expires desc`);
    expect(drawer.value).toHaveLength(63);
    const expires = drawer.value.map((row) => Date.parse(row.expires));
    expect([...expires].sort((a, b) => b - a)).toEqual(expires);
    const active = await matches('operator', `$filter=ruleId eq ${ruleId} and expires gt ${new Date().toISOString()}`);
    expect(active.value.map((row) => row.label)).toEqual(['Sensor 0']);
  });

  it("never shows another tenant's matches", async () => {
    expect((await matches('operator2', `$filter=subjectId eq '${subject}'`))['@odata.count']).toBe(0);
  });

  it('reads a rule’s or a subject’s matches through their indexes', async () => {
    await portal.db.connection().execute(async (connection) => {
      await sql`SET statement_timeout = 0`.execute(connection);
      await sql`INSERT INTO rule_match (rule_id, tenant_id, subject_id, first_match, last_match, expires, completion_processed)
                SELECT ${ruleId}::uuid, ${DEMO.contoso}::uuid, 'bulk-' || g, now(), now(), now() - g * interval '1 second', true FROM generate_series(1, 20000) AS g`.execute(
        connection,
      );
      await sql`ANALYZE rule_match`.execute(connection);
    });
    const scope = { kind: 'some', tenantIds: [DEMO.contoso] } as const;
    // The statement the list route runs for the page, as EXPLAIN describes it.
    const indexesOf = async (query: Record<string, string>) => {
      const base = scoped(portal.db, scope).selectFrom('rule_match').selectAll();
      const { rows: statement } = buildListSql(
        base,
        parseListQuery(ruleMatchesResource, { ...query, $count: 'false' }),
        scope,
      );
      const { rows } = await executeListStatement(portal.db, sql<{ 'QUERY PLAN': string }>`EXPLAIN ${statement}`);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    expect(await indexesOf({ $filter: `subjectId eq '${subject}'`, $top: '100', $orderby: 'expires desc' })).toContain(
      'rule_match_subject_idx',
    );
    expect(await indexesOf({ $filter: `subjectId eq '${subject}'` })).toContain('rule_match_subject_idx');
    const byRule = await indexesOf({ $filter: `ruleId eq ${ruleId}`, $top: '100', $orderby: 'expires desc' });
    expect(byRule).toMatch(/rule_match_(rule|tenant)_idx/);
    expect(byRule).not.toContain('Seq Scan');
    const response = await portal.as('operator', {
      method: 'GET',
      url: `/v1/rulematches?$filter=subjectId eq '${subject}'&$top=100&$orderby=expires desc`,
    });
    expect(response.json<{ value: unknown[] }>().value).toHaveLength(3);
  });
});
