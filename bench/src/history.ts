import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../server/src/db/database.js';
import { DEMO } from '../../server/src/db/demo-ids.js';
import { get, type BenchPortal } from './bench-portal.js';
import type { RecordFigure } from './fleet.js';
import { paired, type Timing } from './measure.js';

/** A packet a minute per entity: what an agent's heartbeat writes. */
const PER_ENTITY_DAY = 1440;
/** The days of history loaded, within the default retention of 30. */
const DAYS = 29;

/**
 * `entities` entities' heartbeats, one a minute over the last DAYS days, written by the server
 * itself (INSERT … SELECT over generate_series): the history as a fleet that size keeps it.
 */
async function loadHistory(db: Db, entities: readonly string[]): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`SET statement_timeout = 0`.execute(connection);
    for (const entityId of entities) {
      await sql`
        INSERT INTO packet (entity_id, tenant_id, timestamp, content_hash, message)
        SELECT ${entityId}::uuid, ${DEMO.contoso}::uuid, date_trunc('minute', now()) - g * interval '1 minute',
               sha256(convert_to(g::text, 'UTF8')),
               jsonb_build_object('Value', g % 100, 'Metrics', jsonb_build_object('CpuPercent', g % 100), 'States', '{}'::jsonb)
        FROM generate_series(1, ${DAYS * PER_ENTITY_DAY}) AS g
        ON CONFLICT DO NOTHING`.execute(connection);
    }
    await sql`
      INSERT INTO packet_latest (entity_id, tenant_id, timestamp, message)
      SELECT e, ${DEMO.contoso}::uuid, date_trunc('minute', now()) - interval '1 minute', '{"Value": 1}'::jsonb
      FROM unnest(${sql.val(entities)}::uuid[]) AS e ON CONFLICT DO NOTHING`.execute(connection);
    await sql`VACUUM ANALYZE packet`.execute(connection);
    await sql`RESET statement_timeout`.execute(connection);
  });
}

/**
 * One entity's packet series (the last day in 60 buckets) and its history's first page, as the
 * Packet drawer asks them over HTTP, with `stored` packets in the history and then ten times as
 * many (more entities, each with a packet a minute): the figures at the larger size against the
 * same at the smaller, in one run. Flat means the reads walk only the entity's own rows.
 */
export async function history(portal: BenchPortal, record: RecordFigure, options: { stored: number; runs: number }) {
  const operator = await portal.token('operator');
  const perEntity = DAYS * PER_ENTITY_DAY;
  const measured = randomUUID();
  const small = Math.max(1, Math.round(options.stored / 10 / perEntity));
  const large = Math.max(small + 1, Math.round(options.stored / perEntity));
  const others = Array.from({ length: large - 1 }, () => randomUUID());
  const series = `/v1/packets/${measured}/series?${new URLSearchParams({ from: new Date(Date.now() - 86_400_000).toISOString(), buckets: '60' }).toString()}`;
  const page = `/v1/packets/${measured}/history?$top=100`;
  const time = (path: string) => async () => (await get(portal, operator, path)).ms;
  const sizes: { packets: number; series: Timing; history: Timing }[] = [];
  let loaded = 0;
  for (const entities of [small, large]) {
    const adding = [...(loaded === 0 ? [measured] : []), ...others.slice(Math.max(0, loaded - 1), entities - 1)];
    const started = Date.now();
    await loadHistory(portal.runtime.db, adding);
    loaded = entities;
    const packets = entities * perEntity;
    console.log(
      `  ${packets.toLocaleString('en-US')} packets stored (${entities} entities) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    const { a, b } = await paired(options.runs, time(series), time(page));
    console.log(
      `  series p50 ${a.p50.toFixed(2)} ms, p95 ${a.p95.toFixed(2)} ms; history page p50 ${b.p50.toFixed(2)} ms, p95 ${b.p95.toFixed(2)} ms`,
    );
    sizes.push({ packets, series: a, history: b });
  }
  const [before, after] = sizes as [(typeof sizes)[number], (typeof sizes)[number]];
  const at = (packets: number) => `${packets.toLocaleString('en-US')} packets`;
  for (const [label, of] of [
    ['packet series of one entity, last day, 60 buckets', (size: (typeof sizes)[number]) => size.series],
    ['packet history of one entity, first page of 100', (size: (typeof sizes)[number]) => size.history],
  ] as const) {
    for (const percentile of ['p50', 'p95'] as const) {
      record({
        name: `${label}, ${percentile}, at ${at(after.packets)}`,
        value: of(after)[percentile],
        unit: 'ms',
        baselineName: `the same at ${at(before.packets)}`,
        baseline: of(before)[percentile],
        target: '≤ 1.5',
      });
    }
  }
}
