import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDeviceCredential } from '../src/auth/machine-callers.js';
import { DEMO } from '../src/db/demo-ids.js';
import { maintainPacketPartitions, packetPartitions } from '../src/engines/ingestion/partitions.js';
import { newestPacketsStatement } from '../src/engines/rules/window.js';
import { metrics } from '../src/observability/metrics.js';
import { createTokenAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';
import { createMetricRule } from './rule-factories.js';

let portal: TestPortal;
let contosoToken: string;
let fabrikamToken: string;
beforeAll(async () => {
  portal = await createTestPortal();
  contosoToken = (await createTokenAs(portal, 'admin', DEMO.contoso)).generatedToken;
  fabrikamToken = (await createTokenAs(portal, 'admin', DEMO.fabrikam)).generatedToken;
});
afterAll(async () => {
  await portal?.close();
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const packet = (entityId: string, timestamp: string, value: number, extra: Record<string, unknown> = {}) => ({
  entityId,
  timestamp,
  message: {
    Value: value,
    Properties: { BlockName: 'Lab host' },
    Metrics: { CpuPercent: value },
    States: { Service: 'Running' },
    Diagnostics: {},
    ...extra,
  },
});

function post(token: string | undefined, payload: unknown) {
  return portal.app.inject({
    method: 'POST',
    url: '/v1/packets',
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

async function historyCount(entityId: string): Promise<number> {
  const { rows } = await sql<{
    n: string;
  }>`SELECT count(*) AS n FROM packet WHERE entity_id = ${entityId}::uuid`.execute(portal.db);
  return Number(rows[0]!.n);
}

async function latestOf(user: string, ...ids: string[]) {
  const response = await portal.as(user, { method: 'GET', url: `/v1/packets?$filter=entityId in (${ids.join(',')})` });
  expect(response.statusCode).toBe(200);
  return response.json<{
    value: { entityId: string; tenantId: string; timestamp: string; message: { Value: number } }[];
  }>().value;
}

/** A device of a tenant with a credential of its own, as promotion makes it. */
async function createDevice(tenantId: string, subscriptionId: string) {
  const { credential, hash } = generateDeviceCredential();
  const row = await portal.db
    .insertInto('device')
    .values({
      tenant_id: tenantId,
      subscription_id: subscriptionId,
      name: `host-${randomUUID().slice(0, 6)}`,
      credential_hash: hash,
    })
    .returning('device_id')
    .executeTakeFirstOrThrow();
  return { deviceId: row.device_id, credential };
}

describe('POST /v1/packets', () => {
  it('refuses a caller without a token, with a bad token or with a revoked token (401), and stores nothing', async () => {
    const entityId = randomUUID();
    expect((await post(undefined, packet(entityId, minutesAgo(1), 1))).statusCode).toBe(401);
    expect((await post('cfs_not-a-token', packet(entityId, minutesAgo(1), 1))).statusCode).toBe(401);
    const grant = await createTokenAs(portal, 'admin', DEMO.contoso);
    await portal.as('admin', { method: 'PUT', url: `/v1/tokens/${grant.tokenGrantId}/revoke` });
    const revoked = await post(grant.generatedToken, packet(entityId, minutesAgo(1), 1));
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual({ message: 'The token has been revoked.' });
    expect(await historyCount(entityId)).toBe(0);
  });

  it('stores a batch with a tenant token and answers how many were accepted and stored', async () => {
    const a = randomUUID();
    const b = randomUUID();
    const response = await post(contosoToken, [
      packet(a, minutesAgo(3), 10),
      packet(a, minutesAgo(2), 20),
      packet(b, minutesAgo(1), 30),
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 3, stored: 3 });
    const latest = await latestOf('operator', a, b);
    expect(latest.map((row) => [row.entityId, row.message.Value]).sort()).toEqual(
      [
        [a, 20],
        [b, 30],
      ].sort(),
    );
    expect(latest.every((row) => row.tenantId === DEMO.contoso)).toBe(true);
  });

  it('accepts one packet sent on its own, not in an array', async () => {
    const entityId = randomUUID();
    const response = await post(contosoToken, packet(entityId, minutesAgo(1), 5));
    expect(response.json()).toEqual({ accepted: 1, stored: 1 });
  });

  it('refuses the whole batch when one item is bad, naming the item and the problem', async () => {
    const good = randomUUID();
    const response = await post(contosoToken, [
      packet(good, minutesAgo(1), 1),
      packet(good, minutesAgo(2), 2),
      { ...packet(good, minutesAgo(3), 3), entityId: 'host-7' },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Item 3: entityId must be a GUID',
      errors: { '3.entityId': ['Item 3: entityId must be a GUID'] },
    });
    const badTime = await post(contosoToken, [packet(good, 'yesterday', 1)]);
    expect(badTime.json<{ message: string }>().message).toBe(
      'Item 1: timestamp must be a date and time with a time zone (ISO 8601)',
    );
    const badMetric = await post(contosoToken, [
      packet(good, minutesAgo(1), 1),
      packet(good, minutesAgo(1), 1, { Metrics: { CpuPercent: 'high' } }),
    ]);
    expect(badMetric.json<{ message: string }>().message).toBe('Item 2: message.Metrics.CpuPercent must be a number');
    const nul = await post(contosoToken, [packet(good, minutesAgo(1), 1, { Properties: { Note: 'a\u0000b' } })]);
    expect(nul.statusCode).toBe(400);
    expect(nul.json<{ message: string }>().message).toBe('Item 1: message may not contain the character U+0000');
    const backslash = await post(contosoToken, [
      packet(randomUUID(), minutesAgo(1), 1, { Properties: { Path: 'C:\\u0000\\dir' } }),
    ]);
    expect(backslash.statusCode, backslash.body).toBe(200);
    expect(await historyCount(good)).toBe(0);
    expect(await latestOf('operator', good)).toEqual([]);
  });

  it('refuses timestamps outside the kept days and an empty or oversized batch', async () => {
    const entityId = randomUUID();
    const old = await post(contosoToken, [packet(entityId, new Date(Date.now() - 31 * 86_400_000).toISOString(), 1)]);
    expect(old.statusCode).toBe(400);
    expect(old.json<{ message: string }>().message).toBe(
      'Item 1: timestamp is older than the 30 days packets are kept',
    );
    const future = await post(contosoToken, [packet(entityId, new Date(Date.now() + 2 * 86_400_000).toISOString(), 1)]);
    expect(future.json<{ message: string }>().message).toBe(
      'Item 1: timestamp is more than a day ahead of the server clock',
    );
    expect((await post(contosoToken, [])).statusCode).toBe(400);
    const tooMany = await post(
      contosoToken,
      Array.from({ length: 1001 }, (_, i) => packet(entityId, new Date(Date.now() - i * 1000).toISOString(), i)),
    );
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json<{ message: string }>().message).toBe(
      'A batch holds at most 1000 packets; send the rest in another request.',
    );
    expect(await historyCount(entityId)).toBe(0);
  });

  it('stores a re-sent packet once, whatever the order of its keys', async () => {
    const entityId = randomUUID();
    const timestamp = minutesAgo(5);
    const first = packet(entityId, timestamp, 42);
    expect((await post(contosoToken, [first, first])).json()).toEqual({ accepted: 2, stored: 1 });
    const reordered = {
      timestamp,
      entityId: entityId.toUpperCase(),
      message: {
        Metrics: first.message.Metrics,
        Value: 42,
        States: first.message.States,
        Diagnostics: {},
        Properties: first.message.Properties,
      },
    };
    expect((await post(contosoToken, reordered)).json()).toEqual({ accepted: 1, stored: 0 });
    expect(await historyCount(entityId)).toBe(1);
    // The same entity and time with other content is another packet.
    expect((await post(contosoToken, packet(entityId, timestamp, 43))).json()).toEqual({ accepted: 1, stored: 1 });
  });

  it('never replaces the latest packet with an older one, in one batch or across batches', async () => {
    const entityId = randomUUID();
    await post(contosoToken, [packet(entityId, minutesAgo(1), 100), packet(entityId, minutesAgo(10), 1)]);
    expect((await latestOf('operator', entityId))[0]!.message.Value).toBe(100);
    await post(contosoToken, [packet(entityId, minutesAgo(5), 50)]);
    const [latest] = await latestOf('operator', entityId);
    expect(latest!.message.Value).toBe(100);
    expect(await historyCount(entityId)).toBe(3);
    await post(contosoToken, [packet(entityId, minutesAgo(0), 200)]);
    expect((await latestOf('operator', entityId))[0]!.message.Value).toBe(200);
  });

  it("refuses another tenant's entity: the first tenant to report an entity owns it", async () => {
    const entityId = randomUUID();
    expect((await post(contosoToken, packet(entityId, minutesAgo(2), 1))).statusCode).toBe(200);
    const other = await post(fabrikamToken, [
      packet(randomUUID(), minutesAgo(1), 7),
      packet(entityId, minutesAgo(1), 2),
    ]);
    expect(other.statusCode).toBe(403);
    expect(other.json<{ message: string }>().message).toBe(
      'Item 2: this caller may not report packets for this entity',
    );
    expect((await latestOf('operator', entityId))[0]!.message.Value).toBe(1);
    expect(await historyCount(entityId)).toBe(1);
  });

  it("refuses a tenant token for another tenant's device", async () => {
    const device = await createDevice(DEMO.fabrikam, DEMO.fabrikamProduction);
    const response = await post(contosoToken, packet(device.deviceId, minutesAgo(1), 1));
    expect(response.statusCode).toBe(403);
    expect((await post(fabrikamToken, packet(device.deviceId, minutesAgo(1), 1))).statusCode).toBe(200);
  });

  it("refuses another tenant's packet for a block created in Fabrikam, storing nothing, and Fabrikam still reports to and reads its block", async () => {
    const blockId = randomUUID();
    const created = await portal.as('operator2', {
      method: 'PUT',
      url: '/v1/blocks',
      payload: { blockId, subscriptionId: DEMO.fabrikamProduction, name: 'Plant sensor', blockTypeId: 1 },
    });
    expect(created.statusCode, created.body).toBe(200);
    const intruder = await post(contosoToken, packet(blockId, minutesAgo(2), 666));
    expect(intruder.statusCode).toBe(403);
    expect(intruder.json<{ message: string }>().message).toBe(
      'Item 1: this caller may not report packets for this entity',
    );
    expect(await historyCount(blockId)).toBe(0);
    expect(await latestOf('admin', blockId)).toEqual([]);
    // Refused again once the owner is known to this instance (the cached path), still storing nothing.
    expect((await post(contosoToken, packet(blockId, minutesAgo(1), 667))).statusCode).toBe(403);
    expect((await post(fabrikamToken, packet(blockId, minutesAgo(1), 7))).statusCode).toBe(200);
    const history = await portal.as('operator2', {
      method: 'GET',
      url: `/v1/blocks/${blockId}/history?pageNumber=1&rowCount=100`,
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(JSON.stringify(history.json())).not.toContain('666');
    expect((await latestOf('operator2', blockId)).map((row) => [row.tenantId, row.message.Value])).toEqual([
      [DEMO.fabrikam, 7],
    ]);
    expect((await post(contosoToken, packet(blockId, minutesAgo(0), 668))).statusCode).toBe(403);
    expect((await latestOf('operator2', blockId))[0]!.message.Value).toBe(7);
    expect(await historyCount(blockId)).toBe(1);
  });

  it("never gives one entity to two tenants when one creates a block while the other's first packet for its id is stored", async () => {
    for (let round = 0; round < 6; round++) {
      const blockId = randomUUID();
      const [created, reported] = await Promise.all([
        portal.as('operator2', {
          method: 'PUT',
          url: '/v1/blocks',
          payload: { blockId, subscriptionId: DEMO.fabrikamProduction, name: 'Raced sensor', blockTypeId: 1 },
        }),
        post(contosoToken, packet(blockId, minutesAgo(1), 1)),
      ]);
      expect(
        [created.statusCode, reported.statusCode].sort(),
        `round ${round}: ${created.body} ${reported.body}`,
      ).toEqual(reported.statusCode === 200 ? [200, 400] : [200, 403]);
      expect(await historyCount(blockId)).toBe(reported.statusCode === 200 ? 1 : 0);
    }
  });

  it("lets a device credential report its own device only, not another device's entity", async () => {
    const mine = await createDevice(DEMO.contoso, DEMO.contosoProduction);
    const neighbour = await createDevice(DEMO.contoso, DEMO.contosoProduction);
    const own = await post(mine.credential, packet(mine.deviceId, minutesAgo(1), 12));
    expect(own.statusCode).toBe(200);
    const refused = await post(mine.credential, [
      packet(mine.deviceId, minutesAgo(0), 13),
      packet(neighbour.deviceId, minutesAgo(0), 14),
    ]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(
      'Item 2: this caller may not report packets for this entity',
    );
    // Nor an entity nobody owns: a device speaks for its own device and operations only.
    expect((await post(mine.credential, packet(randomUUID(), minutesAgo(0), 1))).statusCode).toBe(403);
    expect((await latestOf('operator', mine.deviceId))[0]!.message.Value).toBe(12);
    expect(await historyCount(neighbour.deviceId)).toBe(0);
  });

  it("lets a device credential report its device's operations, and not another device's", async () => {
    const mine = await createDevice(DEMO.contoso, DEMO.contosoProduction);
    const neighbour = await createDevice(DEMO.contoso, DEMO.contosoProduction);
    const pkg = await portal.db
      .insertInto('package')
      .values({ name: `Checks ${randomUUID().slice(0, 6)}`, package_type_id: 1, operating_system_ids: [1] })
      .returning('package_id')
      .executeTakeFirstOrThrow();
    const operation = await portal.db
      .insertInto('operation')
      .values({
        package_id: pkg.package_id,
        name: 'Ping',
        frequency_type_ids: [2],
        operation_type_id: 6,
        operation_result_type_id: 2,
      })
      .returning('operation_id')
      .executeTakeFirstOrThrow();
    const operationOf = async (deviceId: string) =>
      (
        await portal.db
          .insertInto('device_operation')
          .values({
            tenant_id: DEMO.contoso,
            device_id: deviceId,
            operation_id: operation.operation_id,
            label: 'Ping',
            frequency_type_id: 2,
          })
          .returning('device_operation_id')
          .executeTakeFirstOrThrow()
      ).device_operation_id;
    const own = await operationOf(mine.deviceId);
    const theirs = await operationOf(neighbour.deviceId);
    expect((await post(mine.credential, packet(own, minutesAgo(1), 99))).statusCode).toBe(200);
    expect((await post(mine.credential, packet(theirs, minutesAgo(1), 99))).statusCode).toBe(403);
    expect((await latestOf('operator', own))[0]!.message.Value).toBe(99);
    expect(await historyCount(theirs)).toBe(0);
  });
});

describe('GET /v1/packets', () => {
  it("answers the latest packets of the caller's tenants only", async () => {
    const contosoEntity = randomUUID();
    const fabrikamEntity = randomUUID();
    await post(contosoToken, packet(contosoEntity, minutesAgo(1), 1));
    await post(fabrikamToken, packet(fabrikamEntity, minutesAgo(1), 2));
    expect((await latestOf('operator', contosoEntity, fabrikamEntity)).map((row) => row.entityId)).toEqual([
      contosoEntity,
    ]);
    expect((await latestOf('operator2', contosoEntity, fabrikamEntity)).map((row) => row.entityId)).toEqual([
      fabrikamEntity,
    ]);
    expect((await latestOf('admin', contosoEntity, fabrikamEntity)).length).toBe(2);
    const history = await portal.as('operator2', { method: 'GET', url: `/v1/packets/${contosoEntity}/history` });
    expect(history.statusCode).toBe(404);
    expect((await portal.as('enduser', { method: 'GET', url: '/v1/packets' })).statusCode).toBe(403);
  });

  it('answers the history of an entity for a time range, newest first, page by page', async () => {
    const entityId = randomUUID();
    await post(
      contosoToken,
      Array.from({ length: 7 }, (_, i) => packet(entityId, minutesAgo(10 * (i + 1)), i + 1)),
    );
    const url = `/v1/packets/${entityId}/history?from=${encodeURIComponent(minutesAgo(65))}&to=${encodeURIComponent(minutesAgo(15))}&$top=3`;
    const first = (await portal.as('operator', { method: 'GET', url })).json<{
      value: { message: { Value: number } }[];
      '@odata.nextLink'?: string;
    }>();
    expect(first.value.map((row) => row.message.Value)).toEqual([2, 3, 4]);
    expect(first['@odata.nextLink']).toBeDefined();
    const second = (await portal.as('operator', { method: 'GET', url: first['@odata.nextLink']! })).json<{
      value: { message: { Value: number } }[];
      '@odata.nextLink'?: string;
    }>();
    expect(second.value.map((row) => row.message.Value)).toEqual([5, 6]);
    expect(second['@odata.nextLink']).toBeUndefined();
    const bad = await portal.as('operator', {
      method: 'GET',
      url: `/v1/packets/${entityId}/history?$skiptoken=nonsense`,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('partition upkeep', () => {
  it('drops the days older than the retention and keeps recent days and the days ahead', async () => {
    const entityId = randomUUID();
    await post(contosoToken, packet(entityId, minutesAgo(1), 1));
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    const before = (await packetPartitions(portal.db)).map((p) => p.name);
    expect(before).toContain(`packet_${day(-31)}`);
    const { dropped } = await maintainPacketPartitions(portal.db, 30);
    const after = (await packetPartitions(portal.db)).map((p) => p.name);
    expect(dropped).toContain(`packet_${day(-31)}`);
    expect(after).not.toContain(`packet_${day(-31)}`);
    for (const offset of [-29, -1, 0, 1, 7]) expect(after).toContain(`packet_${day(offset)}`);
    expect(await historyCount(entityId)).toBe(1);
    // Running it again drops nothing more: the task may run twice.
    expect((await maintainPacketPartitions(portal.db, 30)).dropped).toEqual([]);
  });

  it('reads only the partitions of the days a rule window spans', async () => {
    const entityId = randomUUID();
    await post(contosoToken, packet(entityId, minutesAgo(2), 1));
    const now = new Date();
    const today = `packet_${now.toISOString().slice(0, 10).replaceAll('-', '')}`;
    // The statement as the rule engine runs it, executed under EXPLAIN ANALYZE: the partitions it read.
    const statement = newestPacketsStatement(
      DEMO.contoso,
      [entityId],
      new Date(now.getTime() - 10 * 60_000),
      now,
      5,
    ).compile(portal.db);
    const explained = await portal.db.executeQuery<{ 'QUERY PLAN': string }>({
      ...statement,
      sql: `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${statement.sql}`,
    });
    const read = new Set(
      explained.rows.flatMap((row) => [...row['QUERY PLAN'].matchAll(/ on (packet_\d{8})/g)].map((match) => match[1])),
    );
    // A window just after midnight spans yesterday too; any other day is never read.
    expect(read.has(today)).toBe(true);
    expect(read.size).toBeLessThanOrEqual(2);
    expect((await packetPartitions(portal.db)).length).toBeGreaterThan(30);
  });

  it('writes batches posted at once in one statement and commit, answering each after it with its own new packets', async () => {
    const entities = Array.from({ length: 12 }, () => randomUUID());
    const first = minutesAgo(5);
    // Each entity reported once first, so that it is Contoso's and its next batches take the usual way.
    await post(
      contosoToken,
      entities.map((entityId) => packet(entityId, first, 0)),
    );
    const commits = async () =>
      (await metrics.ingestCommitBatches.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
    const before = await commits();
    const answers = await Promise.all([
      ...entities.map((entityId, index) => post(contosoToken, packet(entityId, minutesAgo(1), index + 1))),
      // Sent again: stored once, earlier, so none of it is new.
      post(contosoToken, packet(entities[0]!, first, 0)),
    ]);
    expect(answers.map((answer) => answer.json())).toEqual([
      ...entities.map(() => ({ accepted: 1, stored: 1 })),
      { accepted: 1, stored: 0 },
    ]);
    // Thirteen batches in fewer commits: those that arrived while a statement was in flight went together.
    expect(await commits()).toBeGreaterThan(before);
    expect(await commits()).toBeLessThan(before + 13);
    for (const entityId of entities) expect(await historyCount(entityId)).toBe(2);
    const latest = await latestOf('operator', ...entities);
    expect(Object.fromEntries(latest.map((row) => [row.entityId, row.message.Value]))).toEqual(
      Object.fromEntries(entities.map((entityId, index) => [entityId, index + 1])),
    );
  });

  it('writes batches with rule matches posted at once together too, each match with its own packet', async () => {
    const field = `Probe${randomUUID().slice(0, 8)}`;
    const ruleId = await createMetricRule(portal, DEMO.contoso, field, {
      name: `Together ${field}`,
      closesOn: 'expiry',
      lifetimeSeconds: 600,
    });
    const batches = Array.from({ length: 10 }, (_, index) => {
      const entities = [randomUUID(), randomUUID(), randomUUID()];
      // The hot packet at another place in each batch, with a value of its own.
      const hot = index % 3;
      return {
        hot: { entityId: entities[hot]!, value: 91 + index },
        packets: entities.map((entityId, at) =>
          packet(entityId, minutesAgo(1), at, { Metrics: { [field]: at === hot ? 91 + index : 10 } }),
        ),
      };
    });
    await post(
      contosoToken,
      batches.flatMap((batch) => batch.packets.map((each) => ({ ...each, timestamp: minutesAgo(5) }))),
    );
    const commits = async () =>
      (await metrics.ingestCommitBatches.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
    const before = await commits();
    const answers = await Promise.all(batches.map((batch) => post(contosoToken, batch.packets)));
    expect(answers.map((answer) => answer.json())).toEqual(batches.map(() => ({ accepted: 3, stored: 3 })));
    expect(await commits()).toBeLessThan(before + batches.length);
    const matches = await portal.db
      .selectFrom('rule_match')
      .select(['subject_id', 'match_count', 'rule_packet'])
      .where('rule_id', '=', ruleId)
      .execute();
    const seen = new Map(
      matches.map((match) => {
        const shown = match.rule_packet as { entityId: string; message: { Metrics: Record<string, number> } };
        return [
          match.subject_id,
          { count: match.match_count, entityId: shown.entityId, value: shown.message.Metrics[field] },
        ];
      }),
    );
    expect(Object.fromEntries(seen)).toEqual(
      Object.fromEntries(
        batches.map(({ hot }) => [hot.entityId, { count: 2, entityId: hot.entityId, value: hot.value }]),
      ),
    );
  });

  it('stores and answers every batch of a group whose statement fails (a day without its partition yet among them)', async () => {
    const entities = Array.from({ length: 6 }, () => randomUUID());
    await post(
      contosoToken,
      entities.map((entityId) => packet(entityId, minutesAgo(5), 0)),
    );
    // A day whose partition is gone: its batch fails in the group, is made and stored on its own.
    const daysAgo = new Date(Date.now() - 3 * 86_400_000);
    await sql`DROP TABLE IF EXISTS ${sql.table(`packet_${daysAgo.toISOString().slice(0, 10).replaceAll('-', '')}`)}`.execute(
      portal.db,
    );
    const answers = await Promise.all([
      ...entities.map((entityId, index) => post(contosoToken, packet(entityId, minutesAgo(1), index + 1))),
      post(contosoToken, packet(entities[5]!, `${daysAgo.toISOString().slice(0, 10)}T00:01:00Z`, 99)),
    ]);
    expect(answers.map((answer) => answer.json())).toEqual(
      [...entities, 'later'].map(() => ({ accepted: 1, stored: 1 })),
    );
    for (const entityId of entities.slice(0, 5)) expect(await historyCount(entityId)).toBe(2);
    expect(await historyCount(entities[5]!)).toBe(3);
  });

  it('makes a missing day when a packet arrives for it before the task has run', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000);
    const name = `packet_${tomorrow.toISOString().slice(0, 10).replaceAll('-', '')}`;
    await sql`DROP TABLE ${sql.table(name)}`.execute(portal.db);
    const startOfTomorrow = `${tomorrow.toISOString().slice(0, 10)}T00:01:00Z`;
    const entityId = randomUUID();
    expect((await post(contosoToken, packet(entityId, startOfTomorrow, 1))).json()).toEqual({ accepted: 1, stored: 1 });
    expect((await packetPartitions(portal.db)).map((p) => p.name)).toContain(name);
    expect(await historyCount(entityId)).toBe(1);
  });
});
