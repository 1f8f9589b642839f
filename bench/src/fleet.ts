import { createHash, randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { HEARTBEAT_METRICS } from '@cfs/contracts/fleet';
import { LEFT_OPERANDS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { ruleInputSchema, tenantCondition } from '@cfs/contracts/rules';
import { forgetRules } from '../../server/src/engines/rules/rule-cache.js';
import { testRule } from '../../server/src/engines/rules/test-run.js';
import { devicesBase } from '../../server/src/areas/devices/queries.js';
import { deviceEntity } from '../../server/src/areas/devices/resource.js';
import type { TenantScope } from '../../server/src/auth/tenant-scope.js';
import type { Db } from '../../server/src/db/database.js';
import { DEMO } from '../../server/src/db/demo-ids.js';
import { parseListQuery, type ListQueryInput } from '../../server/src/odata/list-query.js';
import { buildListSql } from '../../server/src/odata/list-query-sql.js';
import { get, getHere, type BenchPortal } from './bench-portal.js';
import { listStatementsTimed, paired, timed } from './measure.js';
import { profile } from './profile.js';

/** What a figure is recorded with (run.ts prints and keeps it). */
export type RecordFigure = (figure: {
  name: string;
  value: number;
  unit: string;
  baselineName: string;
  baseline: number;
  target?: string;
}) => void;

export interface IngestionOptions {
  /** Packets per round; each round is measured once each way. */
  packets: number;
  entities: number;
  batch: number;
  connections: number;
  /** Rounds each way: a multiple of the three ways, so that each way goes first, second and last as often. */
  rounds: number;
}

/** A heartbeat as an agent sends it: the figures the devices grid reads, the block name, a state. */
function heartbeat(entityId: string, at: Date, index: number) {
  const cpu = (index * 37) % 100;
  return {
    entityId,
    timestamp: at.toISOString(),
    message: {
      Value: cpu,
      Properties: { BlockName: `host-${entityId.slice(0, 8)}` },
      Metrics: { CpuPercent: cpu, MemoryPercent: (index * 53) % 100 },
      States: { Agent: 'Running' },
      Diagnostics: {},
    },
  };
}

type Heartbeat = ReturnType<typeof heartbeat>;

/**
 * The rounds' packets, the entities each reporting in turn a millisecond apart. Each round goes on
 * where the last one ended, so that every entity's packets come in time order, as an agent's do,
 * and each packet moves its entity's latest row; the first starts far enough back for the last
 * to end before now.
 */
function packetRounds(ids: readonly string[], packetsInAll: number) {
  let next = Date.now() - packetsInAll - 60_000;
  return (count: number): Heartbeat[] => {
    const start = next;
    next += count;
    return Array.from({ length: count }, (_, i) => heartbeat(ids[i % ids.length]!, new Date(start + i), i));
  };
}

/** CSV for COPY into the history table: the same rows ingestion would store. */
function copyRows(packets: readonly Heartbeat[], tenantId: string): string[] {
  const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
  return packets.map((packet) => {
    const message = JSON.stringify(packet.message);
    const hash = createHash('sha256').update(message).digest('hex');
    return `${packet.entityId},${tenantId},${packet.timestamp},\\x${hash},${quote(message)}\n`;
  });
}

async function copyIntoHistory(url: string, rows: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = process.hrtime.bigint();
    const stream = client.query(
      copyFrom('COPY packet (entity_id, tenant_id, timestamp, content_hash, message) FROM STDIN WITH (FORMAT csv)'),
    );
    // Rows in chunks of a thousand: what a bulk loader writes, without one write call per row.
    const chunks: string[] = [];
    for (let i = 0; i < rows.length; i += 1000) chunks.push(rows.slice(i, i + 1000).join(''));
    await pipeline(Readable.from(chunks), stream);
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    await client.end();
  }
}

/** A tenant of the run's own, and a tenant API token of it for the agents that report there. */
export async function agentsTenant(portal: BenchPortal, name: string): Promise<{ tenant: string; token: string }> {
  const tenant = randomUUID();
  await portal.runtime.db
    .insertInto('tenant')
    .values({ tenant_id: tenant, name: `${name} ${tenant.slice(0, 8)}` })
    .execute();
  const admin = await portal.token('admin');
  const grant = await portal.app.inject({
    method: 'PUT',
    url: '/v1/tokens',
    headers: { authorization: `Bearer ${admin}` },
    payload: { tenantId: tenant, name: 'Bench agents', lifetimeYears: 1 },
  });
  if (grant.statusCode !== 200) throw new Error(`token: ${grant.statusCode} ${grant.body}`);
  return { tenant, token: grant.json<{ generatedToken: string }>().generatedToken };
}

/**
 * Twenty Ingestion rules as a tenant would write them: thresholds on the heartbeat's figures, state
 * and name checks, a pattern; a few match now and then (the heartbeats' CPU and memory run 0–99),
 * most never. They are created disabled and switched on for the rounds that measure them.
 */
async function benchRules(db: Db, tenantId: string): Promise<string[]> {
  const condition = (
    LeftOperand: number,
    LeftOperandFieldName: string | null,
    Operator: number,
    RightOperand: string | null,
  ) => ({ Type: 0, LeftOperand, LeftOperandFieldName, Operator, RightOperand, OccurrencePattern: null });
  const { Metric, State, Property, Value } = LEFT_OPERANDS;
  const sets = [
    ...[96, 97, 98, 99].map((threshold) => [
      condition(Metric.id, 'CpuPercent', OPERATORS.GreaterThan, String(threshold)),
    ]),
    ...[96, 97, 98, 99].map((threshold) => [
      condition(Metric.id, 'MemoryPercent', OPERATORS.GreaterThanOrEqual, String(threshold)),
    ]),
    [condition(State.id, 'Agent', OPERATORS.Equals, 'Stopped')],
    [condition(State.id, 'Agent', OPERATORS.NotEquals, 'Running')],
    [condition(Property.id, 'BlockName', OPERATORS.Matches, '^db-[0-9]+$')],
    [condition(Property.id, 'BlockName', OPERATORS.StartsWith, 'web-')],
    [condition(Value.id, null, OPERATORS.LessThan, '-1')],
    [condition(Metric.id, 'DiskPercent', OPERATORS.GreaterThan, '90')],
    [
      condition(Metric.id, 'CpuPercent', OPERATORS.GreaterThan, '95'),
      condition(Metric.id, 'MemoryPercent', OPERATORS.GreaterThan, '95'),
    ],
    [
      condition(Metric.id, 'CpuPercent', OPERATORS.LessThan, '0'),
      { ...condition(State.id, 'Agent', OPERATORS.Equals, 'Degraded'), Type: 1 },
    ],
    [condition(Property.id, 'BlockName', OPERATORS.Contains, 'backup')],
    [condition(Property.id, 'BlockName', OPERATORS.EndsWith, '-old')],
    [condition(State.id, 'Agent', OPERATORS.IsEmpty, null)],
    [
      condition(Metric.id, 'CpuPercent', OPERATORS.Equals, '99'),
      condition(Metric.id, 'MemoryPercent', OPERATORS.Equals, '99'),
    ],
  ];
  const rows = await db
    .insertInto('rule')
    .values(
      sets.map((conditions, index) => ({
        tenant_id: tenantId,
        enabled: false,
        name: `Bench rule ${index + 1}`,
        rule_type_id: RULE_TYPES.Ingestion,
        match_lifetime_seconds: 300,
        // As a new Ingestion rule is made: its matches close on recovery (the sweep's work is the worker's).
        closes_on: 'recovery',
        conditions: JSON.stringify([tenantCondition(tenantId), ...conditions]),
      })),
    )
    .returning('rule_id')
    .execute();
  return rows.map((row) => row.rule_id);
}

async function switchRules(db: Db, ruleIds: readonly string[], enabled: boolean): Promise<void> {
  await db.updateTable('rule').set({ enabled, modified: new Date() }).where('rule_id', 'in', ruleIds).execute();
  forgetRules(db);
}

/**
 * Packet ingestion end to end — POST /v1/packets in batches over `connections` kept-alive
 * connections with a tenant API token (the gate, validation, the ownership check, the rules,
 * history and the latest-row upsert, and the matches, committed before the answer) — with no
 * rule and with twenty Ingestion rules, against raw COPY of the same number of rows into the same
 * history table through one connection, in turns.
 */
export async function ingestion(portal: BenchPortal, record: RecordFigure, options: IngestionOptions): Promise<void> {
  const db = portal.runtime.db;
  // A tenant of its own: "no rules" means none (the demo tenant has rules of its own).
  const { tenant, token } = await agentsTenant(portal, 'Bench ingestion');
  const url = `${portal.address}/v1/packets`;
  const ruleIds = await benchRules(db, tenant);
  const batches = (packets: Heartbeat[]) => {
    const bodies: string[] = [];
    for (let i = 0; i < packets.length; i += options.batch)
      bodies.push(JSON.stringify(packets.slice(i, i + options.batch)));
    return bodies;
  };
  const ingest = async (packets: Heartbeat[], rules: boolean) => {
    await switchRules(db, ruleIds, rules);
    const result = await portal.client.postAll(url, token, options.connections, batches(packets));
    if (result.failures > 0)
      throw new Error(`POST /v1/packets: ${result.failures} batches refused, e.g. ${result.firstFailure ?? ''}`);
    return result.seconds;
  };
  // The steady state: agents report the same entities again and again, so a warm-up round (not
  // counted) has every entity report once first; the rounds then move their latest rows.
  const ids = Array.from({ length: options.entities }, () => randomUUID());
  const round = packetRounds(ids, 2 * options.entities + 3 * options.rounds * options.packets);
  await ingest(round(options.entities), true);
  await copyIntoHistory(portal.runtime.databaseUrl, copyRows(round(options.entities), tenant));
  const totals = { bare: 0, rules: 0, copy: 0 };
  const ways = [
    async () => (totals.bare += await ingest(round(options.packets), false)),
    async () => (totals.rules += await ingest(round(options.packets), true)),
    async () =>
      (totals.copy += await copyIntoHistory(portal.runtime.databaseUrl, copyRows(round(options.packets), tenant))),
  ];
  for (let turn = 0; turn < options.rounds; turn++) {
    // Each way goes first, second and last in turn, so that none always meets a warmer or busier database.
    for (let way = 0; way < ways.length; way++) await ways[(turn + way) % ways.length]!();
  }
  await switchRules(db, ruleIds, false);
  const packets = options.packets * options.rounds;
  const shape = `batches of ${options.batch}, ${options.connections} connections, ${options.entities.toLocaleString('en-US')} entities, history + latest`;
  record({
    name: `packets accepted through POST /v1/packets, no rules (${shape})`,
    value: packets / totals.bare,
    unit: 'packets/s',
    baselineName: 'raw COPY into the history table',
    baseline: packets / totals.copy,
    target: '≥ 0.5',
  });
  record({
    name: `packets accepted through POST /v1/packets, ${ruleIds.length} Ingestion rules evaluated and their matches recorded`,
    value: packets / totals.rules,
    unit: 'packets/s',
    baselineName: 'raw COPY into the history table',
    baseline: packets / totals.copy,
    target: '≥ 0.5',
  });
  record({
    name: `ingestion with ${ruleIds.length} Ingestion rules`,
    value: packets / totals.rules,
    unit: 'packets/s',
    baselineName: 'ingestion with no rules',
    baseline: packets / totals.bare,
    target: '≥ 0.95',
  });
}

/**
 * Single-row commits through `connections` connections of the driver, each row its own
 * transaction (autocommit) in a table of the run's own: what the database server itself does
 * when every write is one small commit, the baseline of packets posted one or two at a time.
 */
async function singleRowCommits(url: string, rows: number, connections: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  try {
    await pool.query('CREATE TABLE IF NOT EXISTS bench_commit (id bigserial PRIMARY KEY, body jsonb NOT NULL)');
    const started = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        const client = await pool.connect();
        try {
          while (next < rows) await client.query('INSERT INTO bench_commit (body) VALUES ($1)', [{ n: next++ }]);
        } finally {
          client.release();
        }
      }),
    );
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    await pool.query('DROP TABLE IF EXISTS bench_commit');
    await pool.end();
  }
}

export interface AgentPacketsOptions {
  /** Packets per round and way. */
  packets: number;
  entities: number;
  connections: number;
  rounds: number;
}

/**
 * Packets as agents send them: one, two or a hundred heartbeats per POST of a tenant token, each POST
 * answered after its commit, through `connections` connections, against single-row commits on
 * the same server through as many connections, in turns.
 */
export async function agentPackets(
  portal: BenchPortal,
  record: RecordFigure,
  options: AgentPacketsOptions,
): Promise<void> {
  const { token } = await agentsTenant(portal, 'Bench agents');
  const url = `${portal.address}/v1/packets`;
  const ids = Array.from({ length: options.entities }, () => randomUUID());
  const shapes = [1, 2, 100] as const;
  const round = packetRounds(ids, options.entities + shapes.length * options.rounds * options.packets);
  const post = async (perPost: number) => {
    const packets = round(options.packets);
    const bodies: string[] = [];
    for (let i = 0; i < packets.length; i += perPost) {
      const batch = packets.slice(i, i + perPost);
      bodies.push(JSON.stringify(perPost === 1 ? batch[0] : batch));
    }
    const result = await portal.client.postAll(url, token, options.connections, bodies);
    if (result.failures > 0)
      throw new Error(`POST /v1/packets: ${result.failures} refused, e.g. ${result.firstFailure ?? ''}`);
    return result.seconds;
  };
  // Warm-up (not counted): every entity reports once, and the token is known.
  await post(1);
  const seconds = new Map<number, number>(shapes.map((perPost) => [perPost, 0]));
  let commitSeconds = 0;
  const ways = [
    ...shapes.map((perPost) => async () => seconds.set(perPost, seconds.get(perPost)! + (await post(perPost)))),
    async () =>
      (commitSeconds += await singleRowCommits(portal.runtime.databaseUrl, options.packets, options.connections)),
  ];
  for (let turn = 0; turn < options.rounds; turn++) {
    for (let way = 0; way < ways.length; way++) await ways[(turn + way) % ways.length]!();
  }
  const packets = options.packets * options.rounds;
  const commits = packets / commitSeconds;
  // Where the portal's thread spends a single-packet POST: what stands between it and the commits.
  const taken = await profile(async () => {
    await post(1);
    return options.packets;
  });
  console.log('  the portal thread per single-packet POST (ms):');
  for (const part of taken.parts.slice(0, 12)) console.log(`    ${part.ms.toFixed(3)}  ${part.part}`);
  for (const fn of taken.functions.slice(0, 12)) console.log(`    ${fn.ms.toFixed(3)}  ${fn.name}`);
  for (const perPost of shapes) {
    record({
      name: `packets accepted, ${perPost} per POST (${options.connections} connections)`,
      value: packets / seconds.get(perPost)!,
      unit: 'packets/s',
      baselineName: `single-row commits (${options.connections} connections)`,
      baseline: commits,
      target: '≥ 0.5',
    });
  }
}

/**
 * The rule editor's Test over a million stored packets: an unsaved threshold rule replayed over the
 * last day of a tenant's packets (1,000 entities), against reading the same packets' fields (the
 * ones the rule names) through the driver without evaluating anything.
 */
export async function ruleTest(
  portal: BenchPortal,
  record: RecordFigure,
  options: { packets: number; entities: number },
): Promise<void> {
  const db = portal.runtime.db;
  const tenant = randomUUID();
  await db
    .insertInto('tenant')
    .values({ tenant_id: tenant, name: `Bench rule test ${tenant.slice(0, 8)}` })
    .execute();
  const ids = Array.from({ length: options.entities }, () => randomUUID());
  const end = Date.now() - 60_000;
  const step = Math.floor((20 * 3_600_000) / options.packets);
  // Written a hundred thousand at a time: the rows of a million packets at once would hold some 300 MB.
  for (let start = 0; start < options.packets; start += 100_000) {
    const chunk = Array.from({ length: Math.min(100_000, options.packets - start) }, (_, offset) => start + offset);
    await copyIntoHistory(
      portal.runtime.databaseUrl,
      copyRows(
        chunk.map((i) => heartbeat(ids[i % ids.length]!, new Date(end - (options.packets - i) * step), i)),
        tenant,
      ),
    );
  }
  await sql`ANALYZE packet`.execute(db);
  const values = ruleInputSchema.parse({
    name: 'CPU over 98 (draft)',
    ruleTypeId: RULE_TYPES.Ingestion,
    tenantId: tenant,
    matchLifetime: '00:05:00',
    conditions: [
      tenantCondition(tenant),
      {
        Type: 0,
        LeftOperand: LEFT_OPERANDS.Metric.id,
        LeftOperandFieldName: 'CpuPercent',
        Operator: OPERATORS.GreaterThan,
        RightOperand: '98',
        OccurrencePattern: null,
      },
    ],
  });
  const from = new Date(Date.now() - 86_400_000);
  const read = async () =>
    timed(() =>
      db.transaction().execute(async (trx) => {
        await sql`SET LOCAL work_mem = '128MB'`.execute(trx);
        await sql`DECLARE bench_read NO SCROLL CURSOR FOR SELECT entity_id, tenant_id, (extract(epoch from timestamp) * 1000)::float8 AS at, message -> 'Properties' -> 'BlockName' AS f0, message -> 'Metrics' -> 'CpuPercent' AS f1 FROM packet
          WHERE tenant_id = ${tenant} AND timestamp >= ${from} ORDER BY entity_id, timestamp`.execute(trx);
        for (;;) {
          const { rows: page } = await sql`FETCH 50000 FROM bench_read`.execute(trx);
          if (page.length < 50_000) return;
        }
      }),
    );
  const test = async () =>
    timed(async () => {
      const result = await testRule(db, { kind: 'some', tenantIds: [tenant] }, values, 'day');
      if (result.packetsExamined !== options.packets)
        throw new Error(`The Test read ${result.packetsExamined} packets, not ${options.packets}`);
    });
  const runs = { test: 0, read: 0 };
  for (let round = 0; round < 2; round++) {
    if (round % 2 === 0) {
      runs.test += await test();
      runs.read += await read();
    } else {
      runs.read += await read();
      runs.test += await test();
    }
  }
  record({
    name: `the rule editor's Test over ${options.packets.toLocaleString('en-US')} stored packets (last day, ${options.entities.toLocaleString('en-US')} entities)`,
    value: runs.test / 2000,
    unit: 's',
    baselineName: 'reading the same packets through the driver',
    baseline: runs.read / 2000,
    target: 'within seconds',
  });
}

/**
 * The devices of Contoso, the operator's tenant: `count` devices over 50 locations, each with a
 * latest heartbeat (the grid's CPU %, Memory % and Age), as a fleet that reports.
 */
export async function loadDevices(db: Db, count: number): Promise<void> {
  await sql`
    INSERT INTO location (tenant_id, name, city)
    SELECT ${DEMO.contoso}::uuid, 'Site ' || g, 'City ' || g FROM generate_series(1, 50) AS g`.execute(db);
  await sql`
    INSERT INTO device (tenant_id, subscription_id, name, location_id, machine_name)
    SELECT ${DEMO.contoso}::uuid, ${DEMO.contosoProduction}::uuid, 'host-' || lpad(g::text, 6, '0'), l.ids[1 + g % 50], 'HOST' || g
    FROM generate_series(1, ${count}) AS g,
         (SELECT array_agg(location_id) AS ids FROM location WHERE tenant_id = ${DEMO.contoso}::uuid) AS l`.execute(db);
  await sql`
    INSERT INTO packet_latest (entity_id, tenant_id, timestamp, message)
    SELECT device_id, tenant_id, now() - (random() * interval '5 minutes'),
           jsonb_build_object('Value', 10, 'Properties', jsonb_build_object('BlockName', name),
             'Metrics', jsonb_build_object(${HEARTBEAT_METRICS.cpuPercent}::text, round((random() * 100)::numeric, 2), ${HEARTBEAT_METRICS.memoryPercent}::text, round((random() * 100)::numeric, 2)))
    FROM device WHERE tenant_id = ${DEMO.contoso}::uuid`.execute(db);
}

/**
 * The devices grid's 30 s poll (spec 002 §2, §9: a page of 10 by name, with the count, the location
 * expanded and the live values of each device's latest packet) as the one-tenant operator asks it,
 * over HTTP, against the same statements sent straight through the driver, in turns.
 */
export async function devicesList(
  portal: BenchPortal,
  record: RecordFigure,
  options: { runs: number; devices: number },
): Promise<void> {
  const operator = await portal.token('operator');
  const query = { $top: '10', $count: 'true', $expand: 'location', $orderby: 'name' };
  const path = `/v1/devices?${new URLSearchParams(query).toString()}`;
  const { db } = portal.runtime;
  const scope: TenantScope = { kind: 'some', tenantIds: [DEMO.contoso] };
  const statements = buildListSql(
    devicesBase(db, scope),
    parseListQuery(deviceEntity.resource, query as ListQueryInput),
    scope,
  );
  const direct = () => listStatementsTimed(db, statements);
  const first = await getHere(portal, operator, path);
  if (!first.body.includes('"cpuPercent"'))
    throw new Error(`GET ${path} answered without live values: ${first.body.slice(0, 200)}`);
  const { a: http, b: driver } = await paired(
    options.runs,
    async () => (await getHere(portal, operator, path)).ms,
    direct,
  );
  record({
    name: `devices grid poll at ${options.devices.toLocaleString('en-US')} devices ($top=10, $count, $expand=location, by name, live values): p50 over HTTP`,
    value: http.p50,
    unit: 'ms',
    baselineName: 'the same SQL through the driver',
    baseline: driver.p50,
  });
}

/** Measures one list page against a page of the devices list (`$top=25`, `$count`, by name), in turns. */
export type ListPageMeasure = (label: string, pathAndQuery: string, runs: number) => Promise<void>;

/**
 * A list's pages as the one-tenant operator asks them, over HTTP, each against a plain indexed page
 * of the devices list in turns: figures named `${subject}: ${label}, p50` and `…, p95`.
 */
export async function devicesPageMeasure(
  portal: BenchPortal,
  record: RecordFigure,
  subject: string,
): Promise<ListPageMeasure> {
  const operator = await portal.token('operator');
  const baselinePath = `/v1/devices?${new URLSearchParams({ $top: '25', $count: 'true', $orderby: 'name' }).toString()}`;
  const baseline = async () => (await get(portal, operator, baselinePath)).ms;
  return async (label, pathAndQuery, runs) => {
    const first = await get(portal, operator, pathAndQuery);
    if (!first.body.includes('"value"')) throw new Error(`GET ${pathAndQuery}: ${first.body.slice(0, 200)}`);
    const { a, b } = await paired(runs, async () => (await get(portal, operator, pathAndQuery)).ms, baseline, 3);
    console.log(
      `  ${label}: p50 ${a.p50.toFixed(1)} ms, p95 ${a.p95.toFixed(1)} ms (devices page p50 ${b.p50.toFixed(1)} ms)`,
    );
    const baselineName = 'a devices list page ($top=25, $count, by name)';
    record({ name: `${subject}: ${label}, p50`, value: a.p50, unit: 'ms', baselineName, baseline: b.p50 });
    record({
      name: `${subject}: ${label}, p95`,
      value: a.p95,
      unit: 'ms',
      baselineName: `${baselineName}, p95`,
      baseline: b.p95,
    });
  };
}
