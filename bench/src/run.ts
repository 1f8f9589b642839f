import { sql } from 'kysely';
import { parseListQuery } from '../../server/src/odata/list-query.js';
import { ALL_TENANTS } from '../../server/src/auth/tenant-scope.js';
import { buildListSql } from '../../server/src/odata/list-query-sql.js';
import { tenantsResource } from '../../server/src/areas/tenants/resource.js';
import { get, openBenchPortal } from './bench-portal.js';
import { ms, paired, timed } from './measure.js';

/**
 * `npm run bench`: the tenants list as the grid asks for it, over HTTP through the whole server
 * (auth gate, list-query layer, JSON), against the same SQL sent straight through the driver.
 * The ratio is the portal's overhead per list call. It runs on an embedded PostgreSQL server, or on the one at BENCH_DATABASE_URL.
 */
const TENANTS = Number(process.env.BENCH_TENANTS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const QUERY = { $count: 'true', $top: '10', $skip: '0', $orderby: 'name asc', $filter: "contains(name,'tenant 1')" };

const portal = await openBenchPortal(async ({ db }) => {
  await sql`INSERT INTO tenant (name, assignment_groups) SELECT 'Tenant ' || g, 'Service Desk' FROM generate_series(1, ${TENANTS}) AS g`.execute(db);
  await sql`ANALYZE tenant`.execute(db);
});
try {
  const { db } = portal.runtime;
  const token = await portal.token('admin');
  const path = `/v1/tenants?${new URLSearchParams(QUERY).toString()}`;
  const body = JSON.parse((await get(portal, token, path)).body) as { '@odata.count': number };
  console.log(`database: ${portal.label}; ${TENANTS} tenants; list answers @odata.count = ${body['@odata.count']}`);

  // The same two statements the route runs (page and count, side by side as it does), through the driver.
  const statements = buildListSql(db.selectFrom('tenant').selectAll(), parseListQuery(tenantsResource, QUERY), ALL_TENANTS);
  const direct = () => timed(() => Promise.all([statements.rows.execute(db), statements.count.execute(db)]));
  const { a: http, b: driver, difference } = await paired(RUNS, async () => (await get(portal, token, path)).ms, direct);
  console.log(`GET /v1/tenants (HTTP, auth, list layer): p50 ${ms(http.p50)}, p95 ${ms(http.p95)} over ${http.runs} calls`);
  console.log(`same SQL through the driver:              p50 ${ms(driver.p50)}, p95 ${ms(driver.p95)}`);
  console.log(`ratio (portal / driver, p50): ${(http.p50 / driver.p50).toFixed(2)}x`);
  // The target for a signed-in list call: at most 0.35 ms more than the SQL alone.
  console.log(`overhead (portal − driver, p50 of paired calls): ${ms(difference.p50)}, p95 ${ms(difference.p95)} (target ≤ 0.35 ms)`);
} finally {
  await portal.close();
}
