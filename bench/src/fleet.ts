import { createHash, randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { HEARTBEAT_METRICS } from '@cfs/contracts/fleet';
import { devicesBase } from '../../server/src/areas/devices/queries.js';
import { devicesResource } from '../../server/src/areas/devices/resource.js';
import type { TenantScope } from '../../server/src/auth/tenant-scope.js';
import type { Db } from '../../server/src/db/database.js';
import { DEMO } from '../../server/src/db/seed.js';
import { parseListQuery, type ListQueryInput } from '../../server/src/odata/list-query.js';
import { buildListSql } from '../../server/src/odata/list-query-sql.js';
import { getHere, type BenchPortal } from './bench-portal.js';
import { paired, timed } from './measure.js';

/** What a figure is recorded with (run.ts prints and keeps it). */
export type RecordFigure = (figure: { name: string; value: number; unit: string; baselineName: string; baseline: number; target?: string }) => void;

export interface IngestionOptions {
  /** Packets per round; each round is measured once each way. */
  packets: number;
  entities: number;
  batch: number;
  connections: number;
  rounds: number;
}

/** A heartbeat as an agent sends it: the figures the devices grid reads, the block name, a state. */
function heartbeat(entityId: string, at: Date, index: number) {
  const cpu = (index * 37) % 100;
  return {
    entityId,
    timestamp: at.toISOString(),
    message: { Value: cpu, Properties: { BlockName: `host-${entityId.slice(0, 8)}` }, Metrics: { CpuPercent: cpu, MemoryPercent: (index * 53) % 100 }, States: { Agent: 'Running' }, Diagnostics: {} },
  };
}

type Heartbeat = ReturnType<typeof heartbeat>;

/** One round's packets: the entities each reporting in turn, a millisecond apart, ending now. */
function makeRound(ids: readonly string[], options: Pick<IngestionOptions, 'packets'>): Heartbeat[] {
  const end = Date.now();
  return Array.from({ length: options.packets }, (_, i) => heartbeat(ids[i % ids.length]!, new Date(end - (options.packets - i)), i));
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
    const stream = client.query(copyFrom('COPY packet (entity_id, tenant_id, timestamp, content_hash, message) FROM STDIN WITH (FORMAT csv)'));
    // Rows in chunks of a thousand: what a bulk loader writes, without one write call per row.
    const chunks: string[] = [];
    for (let i = 0; i < rows.length; i += 1000) chunks.push(rows.slice(i, i + 1000).join(''));
    await pipeline(Readable.from(chunks), stream);
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    await client.end();
  }
}

/**
 * Packet ingestion end to end — POST /v1/packets in batches over `connections` kept-alive
 * connections with a tenant API token (the gate, validation, the ownership check, history and the
 * latest-row upsert, committed before the answer) — against raw COPY of the same number of rows
 * into the same history table through one connection, in turns.
 */
export async function ingestion(portal: BenchPortal, record: RecordFigure, options: IngestionOptions): Promise<void> {
  const admin = await portal.token('admin');
  const grant = await portal.app.inject({ method: 'PUT', url: '/v1/tokens', headers: { authorization: `Bearer ${admin}` }, payload: { tenantId: DEMO.contoso, name: 'Bench agents', lifetimeYears: 1 } });
  if (grant.statusCode !== 200) throw new Error(`token: ${grant.statusCode} ${grant.body}`);
  const token = grant.json<{ generatedToken: string }>().generatedToken;
  const url = `${portal.address}/v1/packets`;
  const batches = (packets: Heartbeat[]) => {
    const bodies: string[] = [];
    for (let i = 0; i < packets.length; i += options.batch) bodies.push(JSON.stringify(packets.slice(i, i + options.batch)));
    return bodies;
  };
  const ingest = async (packets: Heartbeat[]) => {
    const result = await portal.client.postAll(url, token, options.connections, batches(packets));
    if (result.failures > 0) throw new Error(`POST /v1/packets: ${result.failures} batches refused, e.g. ${result.firstFailure ?? ''}`);
    return result.seconds;
  };
  // The steady state: agents report the same entities again and again, so a warm-up round (not
  // counted) has every entity report once first; the rounds then move their latest rows.
  const ids = Array.from({ length: options.entities }, () => randomUUID());
  await ingest(makeRound(ids, { packets: options.entities }));
  await copyIntoHistory(portal.runtime.databaseUrl, copyRows(makeRound(ids, { packets: options.entities }), DEMO.contoso));
  const totals = { ingest: 0, copy: 0 };
  for (let round = 0; round < options.rounds; round++) {
    const forHttp = makeRound(ids, options);
    const forCopy = copyRows(makeRound(ids, options), DEMO.contoso);
    if (round % 2 === 0) {
      totals.ingest += await ingest(forHttp);
      totals.copy += await copyIntoHistory(portal.runtime.databaseUrl, forCopy);
    } else {
      totals.copy += await copyIntoHistory(portal.runtime.databaseUrl, forCopy);
      totals.ingest += await ingest(forHttp);
    }
  }
  const packets = options.packets * options.rounds;
  record({
    name: `packets accepted through POST /v1/packets (batches of ${options.batch}, ${options.connections} connections, ${options.entities.toLocaleString('en-US')} entities, history + latest)`,
    value: packets / totals.ingest,
    unit: 'packets/s',
    baselineName: 'raw COPY into the history table',
    baseline: packets / totals.copy,
    target: '≥ 0.25',
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
export async function devicesList(portal: BenchPortal, record: RecordFigure, options: { runs: number; devices: number }): Promise<void> {
  const operator = await portal.token('operator');
  const query = { $top: '10', $count: 'true', $expand: 'location', $orderby: 'name' };
  const path = `/v1/devices?${new URLSearchParams(query).toString()}`;
  const { db } = portal.runtime;
  const scope: TenantScope = { kind: 'some', tenantIds: [DEMO.contoso] };
  const statements = buildListSql(devicesBase(db, scope), parseListQuery(devicesResource, query as ListQueryInput), scope);
  const direct = () => timed(() => Promise.all([statements.rows.execute(db), statements.count.execute(db)]));
  const first = await getHere(portal, operator, path);
  if (!first.body.includes('"cpuPercent"')) throw new Error(`GET ${path} answered without live values: ${first.body.slice(0, 200)}`);
  const { a: http, b: driver } = await paired(options.runs, async () => (await getHere(portal, operator, path)).ms, direct);
  record({
    name: `devices grid poll at ${options.devices.toLocaleString('en-US')} devices ($top=10, $count, $expand=location, by name, live values): p50 over HTTP`,
    value: http.p50,
    unit: 'ms',
    baselineName: 'the same SQL through the driver',
    baseline: driver.p50,
  });
}
