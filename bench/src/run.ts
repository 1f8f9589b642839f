import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../server/src/app.js';
import { mintAccessToken } from '../../server/src/auth/embedded/mint.js';
import { loadConfig } from '../../server/src/config.js';
import { parseListQuery } from '../../server/src/odata/list-query.js';
import { buildListSql } from '../../server/src/odata/list-query-sql.js';
import { tenantsResource } from '../../server/src/areas/tenants/resource.js';
import { openRuntime } from '../../server/src/runtime.js';
import { ms, time } from './measure.js';

/**
 * `npm run bench`: the tenants list as the grid asks for it, over HTTP through the whole server
 * (auth gate, list-query layer, JSON), against the same SQL sent straight through the driver.
 * The ratio is the portal's overhead per list call. BENCH_DATABASE_URL runs it on PostgreSQL.
 */
const TENANTS = Number(process.env.BENCH_TENANTS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const QUERY = { $count: 'true', $top: '10', $skip: '0', $orderby: 'name asc', $filter: "contains(name,'tenant 1')" };

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-bench-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const schema = databaseUrl ? `bench_${process.pid}` : undefined;
  if (schema && databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.end();
  }
  const runtime = await openRuntime(config, schema ? { schema } : {});
  const { db } = runtime;
  try {
    await sql`INSERT INTO tenant (name, assignment_groups)
      SELECT 'Tenant ' || g, 'Service Desk' FROM generate_series(1, ${TENANTS}) AS g`.execute(db);
    await sql`ANALYZE tenant`.execute(db);

    const app = await buildApp({ ...runtime, ...(runtime.provider ? { provider: runtime.provider } : {}), logger: false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    if (!runtime.keys) throw new Error('The benchmark needs the embedded identity provider');
    const token = await mintAccessToken(config, runtime.keys, 'admin');
    const url = `${address}/v1/tenants?${new URLSearchParams(QUERY).toString()}`;
    const check = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await check.json()) as { '@odata.count': number };
    console.log(`database: ${databaseUrl ? 'PostgreSQL server' : 'PGlite'}; ${TENANTS} tenants; list answers @odata.count = ${body['@odata.count']}`);

    const http = await time(RUNS, async () => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
    });

    // The same two statements the route runs (page and count), sent through the driver.
    const statements = buildListSql(db.selectFrom('tenant').selectAll(), parseListQuery(tenantsResource, QUERY));
    const direct = await time(RUNS, async () => {
      await statements.rows.execute(db);
      await statements.count.execute(db);
    });

    console.log(`GET /v1/tenants (HTTP, auth, list layer): p50 ${ms(http.p50)}, p95 ${ms(http.p95)} over ${http.runs} calls`);
    console.log(`same SQL through the driver:              p50 ${ms(direct.p50)}, p95 ${ms(direct.p95)}`);
    console.log(`ratio (portal / driver, p50): ${(http.p50 / direct.p50).toFixed(2)}x`);
    await app.close();
  } finally {
    if (schema) await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(db);
    await db.destroy();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
