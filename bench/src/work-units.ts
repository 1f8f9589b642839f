import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../server/src/app.js';
import { mintAccessToken } from '../../server/src/auth/embedded/mint.js';
import { loadConfig } from '../../server/src/config.js';
import { openRuntime } from '../../server/src/runtime.js';
import { ms, time } from './measure.js';

/**
 * The work units list at a million rows: the default list call (New incidents, severity
 * ascending, newest first, with the count) as an all-tenant admin and as a one-tenant operator,
 * plus a search. BENCH_DATABASE_URL runs it on PostgreSQL; BENCH_WORK_UNITS sets the size.
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

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-bench-wu-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const schema = databaseUrl ? `bench_wu_${process.pid}` : undefined;
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
    const started = Date.now();
    // 50 more tenants besides the demo ones; rows spread over tenants, states, types, severities and a year.
    await sql`INSERT INTO tenant (name) SELECT 'Bench tenant ' || g FROM generate_series(1, 50) AS g`.execute(db);
    // Independent, repeatable spreads (a seeded random), not one modulo that would tie tenant, state and type together.
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
    console.log(`database: ${databaseUrl ? 'PostgreSQL server' : 'PGlite'}; ${ROWS} work units loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const app = await buildApp({ ...runtime, ...(runtime.provider ? { provider: runtime.provider } : {}), logger: false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    if (!runtime.keys) throw new Error('The benchmark needs the embedded identity provider');
    const call = (user: string, query: Record<string, string>) => async () => {
      const token = await mintAccessToken(config, runtime.keys!, user);
      const url = `${address}/v1/workunits?${new URLSearchParams(query).toString()}`;
      return { token, url };
    };
    for (const [label, user, query] of [
      ['default list, admin (all tenants)', 'admin', DEFAULT_LIST],
      ['default list, operator (one tenant)', 'operator', DEFAULT_LIST],
      ['search "unit 4242" in titles, admin', 'admin', { ...DEFAULT_LIST, $filter: "contains(title,'unit 4242')" }],
      ['page 500 of the default sort, admin', 'admin', { $count: 'true', $top: '10', $skip: '5000', $orderby: 'severityId asc,created desc' }],
    ] as const) {
      const { token, url } = await call(user, query)();
      const first = (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as { '@odata.count': number };
      const timing = await time(RUNS, async () => (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer(), 5);
      console.log(`${label.padEnd(40)} count ${String(first['@odata.count']).padStart(7)}  p50 ${ms(timing.p50)}  p95 ${ms(timing.p95)}`);
    }
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
