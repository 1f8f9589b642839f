import { sql } from 'kysely';
import { get, openBenchPortal } from './bench-portal.js';
import { ms, time } from './measure.js';

/**
 * The work units list at a million rows: the default list call (New incidents, severity
 * ascending, newest first, with the count) as an all-tenant admin and as a one-tenant operator,
 * plus a search and a deep page. It runs on an embedded PostgreSQL server or on the one at BENCH_DATABASE_URL; BENCH_WORK_UNITS sets the size.
 */
const ROWS = Number(process.env.BENCH_WORK_UNITS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const DEFAULT_LIST = {
  $count: 'true',
  $top: '10',
  $skip: '0',
  $orderby: 'severityId asc,created desc',
  $filter: 'stateId in (1) and workUnitTypeId in (1)',
  $expand: 'tenant,workUnitType',
};

const started = Date.now();
const portal = await openBenchPortal(async ({ db }) => {
  // 50 more tenants besides the demo ones; rows spread over tenants, states, types, severities and a year,
  // by a seeded random so the spreads are independent (one modulo would tie tenant, state and type together).
  await sql`INSERT INTO tenant (name) SELECT 'Bench tenant ' || g FROM generate_series(1, 50) AS g`.execute(db);
  await sql`SELECT setseed(0.42)`.execute(db);
  await sql`
    INSERT INTO work_unit (tenant_id, work_unit_type_id, title, severity_id, state_id, assigned_to, created, modified)
    SELECT t.ids[1 + floor(random() * array_length(t.ids, 1))::int], 1 + floor(random() * 3)::int, 'Generated work unit ' || g,
           floor(random() * 5)::int, 1 + floor(random() * 8)::int,
           CASE WHEN random() < 0.25 THEN NULL ELSE 'user' || floor(random() * 97)::int || '@example.com' END,
           now() - floor(random() * 525600) * interval '1 minute', now()
    FROM generate_series(1, ${ROWS}) AS g, (SELECT array_agg(tenant_id ORDER BY name) AS ids FROM tenant) AS t`.execute(db);
  // A live database is vacuumed by autovacuum; measure that steady state, not a freshly loaded heap.
  await sql`VACUUM ANALYZE work_unit`.execute(db);
});
try {
  console.log(`database: ${portal.label}; ${ROWS} work units loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const cases = [
    ['default list, admin (all tenants)', 'admin', DEFAULT_LIST],
    ['default list, operator (one tenant)', 'operator', DEFAULT_LIST],
    ['search "unit 4242" in titles, admin', 'admin', { ...DEFAULT_LIST, $filter: "contains(title,'unit 4242')" }],
    ['page 500 of the default sort, admin', 'admin', { $count: 'true', $top: '10', $skip: '5000', $orderby: 'severityId asc,created desc' }],
  ] as const;
  for (const [label, user, query] of cases) {
    const token = await portal.token(user);
    const path = `/v1/workunits?${new URLSearchParams(query).toString()}`;
    const first = JSON.parse((await get(portal, token, path)).body) as { '@odata.count': number };
    const timing = await time(RUNS, async () => (await get(portal, token, path)).ms, 5);
    console.log(`${label.padEnd(40)} count ${String(first['@odata.count']).padStart(7)}  p50 ${ms(timing.p50)}  p95 ${ms(timing.p95)}`);
  }
} finally {
  await portal.close();
}
