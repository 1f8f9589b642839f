import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { tenantsResource } from '../../server/src/areas/tenants/resource.js';
import { ALL_TENANTS } from '../../server/src/auth/tenant-scope.js';
import { buildListSql } from '../../server/src/odata/list-query-sql.js';
import { parseListQuery, type ListQueryInput } from '../../server/src/odata/list-query.js';
import { connect } from '../../server/src/db/database.js';
import { get, openBenchPortal, type BenchPortal } from './bench-portal.js';
import { paired, time, timed } from './measure.js';

/**
 * `npm run bench`: every figure beside a baseline measured in the same run, printed as a table of
 * ratios and written to `bench/results/<date>.json`, so that a regression shows between versions.
 *
 * - API overhead per list call: the tenants list over HTTP (auth gate, list layer, JSON) against
 *   the same SQL sent straight through the driver, calls taken in turns.
 * - Throughput: a signed-in GET /v1/permissions and the tenants list under load, against a bare
 *   Fastify answering "hello" in the same process under the same load.
 * - The work units list at scale: a one-tenant operator's default page against the admin's, a
 *   title search, the count's cost (with ÷ without) and a deep page (page 500 ÷ page 1).
 * - Polling with 304: the work units default list and the tenants list polled with the tag of the
 *   answer held (304, no query) against the same lists answered 200, one at a time and under load;
 *   and what the change counters cost writers: single-row updates from many connections with the
 *   counter's trigger on ÷ off.
 *
 * `BENCH_FULL=1` (or `--full`) loads a million work units (default 200,000). It runs on an embedded PostgreSQL server,
 * or on a database of its own on the server at BENCH_DATABASE_URL.
 */
const FULL = process.argv.includes('--full') || process.env.BENCH_FULL === '1';
const WORK_UNITS = Number(process.env.BENCH_WORK_UNITS ?? (FULL ? 1_000_000 : 200_000));
const TENANTS = 20_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 500);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const CONNECTIONS = 10;

interface Figure {
  name: string;
  value: number;
  unit: string;
  baselineName: string;
  baseline: number;
  /** value ÷ baseline */
  ratio: number;
  /** What the ratio or value should stay within, as the issues set it. */
  target?: string;
}

const figures: Figure[] = [];
function record(figure: Omit<Figure, 'ratio'>): void {
  const full = { ...figure, ratio: figure.baseline === 0 ? Number.NaN : figure.value / figure.baseline };
  figures.push(full);
  console.log(`  ${full.name}: ${full.value.toFixed(2)} ${full.unit} ÷ ${full.baselineName} ${full.baseline.toFixed(2)} = ${full.ratio.toFixed(2)}${full.target ? `  (target ${full.target})` : ''}`);
}

const started = Date.now();
const portal = await openBenchPortal(async ({ db }) => {
  await sql`INSERT INTO tenant (name, assignment_groups) SELECT 'Tenant ' || g, 'Service Desk' FROM generate_series(1, ${TENANTS}) AS g`.execute(db);
  // Work units over the demo tenants and 50 more, by a seeded random so the spreads of tenant,
  // state, type, severity and time are independent of one another.
  await sql`SELECT setseed(0.42)`.execute(db);
  await sql`
    INSERT INTO work_unit (tenant_id, work_unit_type_id, title, severity_id, state_id, assigned_to, created, modified)
    SELECT t.ids[1 + floor(random() * array_length(t.ids, 1))::int], 1 + floor(random() * 3)::int, 'Generated work unit ' || g,
           floor(random() * 5)::int, 1 + floor(random() * 8)::int,
           CASE WHEN random() < 0.25 THEN NULL ELSE 'user' || floor(random() * 97)::int || '@example.com' END,
           now() - floor(random() * 525600) * interval '1 minute', now()
    FROM generate_series(1, ${WORK_UNITS}) AS g,
         (SELECT array_agg(tenant_id ORDER BY name) AS ids FROM (SELECT tenant_id, name FROM tenant ORDER BY name DESC LIMIT 52) AS few) AS t`.execute(db);
  // A live database is vacuumed by autovacuum; measure that steady state, not a freshly loaded heap.
  await sql`VACUUM ANALYZE`.execute(db);
});
console.log(`${portal.label}; ${TENANTS} tenants and ${WORK_UNITS} work units loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const listPath = (resource: string, query: Record<string, string>) => `/v1/${resource}?${new URLSearchParams(query).toString()}`;

async function overhead(portal: BenchPortal, token: string, label: string, query: Record<string, string>): Promise<void> {
  const { db } = portal.runtime;
  const path = listPath('tenants', query);
  // The same two statements the route runs (page and count, side by side as it does), through the driver.
  const statements = buildListSql(db.selectFrom('tenant').selectAll(), parseListQuery(tenantsResource, query as ListQueryInput), ALL_TENANTS);
  const direct = () => timed(() => Promise.all([statements.rows.execute(db), ...(query.$count ? [statements.count.execute(db)] : [])]));
  const { a: http, b: driver, difference } = await paired(RUNS, async () => (await get(portal, token, path)).ms, direct);
  record({ name: `${label}: p50 over HTTP`, value: http.p50, unit: 'ms', baselineName: 'the same SQL through the driver', baseline: driver.p50 });
  record({ name: `${label}: overhead per call (p50 of paired calls)`, value: difference.p50, unit: 'ms', baselineName: 'the SQL', baseline: driver.p50, target: '≤ 0.35 ms' });
  record({ name: `${label}: overhead per call (p95 of paired calls)`, value: difference.p95, unit: 'ms', baselineName: 'the SQL', baseline: driver.p95 });
}

async function throughput(portal: BenchPortal, token: string): Promise<void> {
  const bare = Fastify();
  bare.get('/hello', () => ({ hello: 'world' }));
  const bareUrl = `${await bare.listen({ port: 0, host: '127.0.0.1' })}/hello`;
  try {
    const rate = async (url: string) => {
      await portal.client.load(url, token, CONNECTIONS, 1);
      const result = await portal.client.load(url, token, CONNECTIONS, LOAD_SECONDS);
      if (result.failures > 0) throw new Error(`${url}: ${result.failures} failed requests under load`);
      return result.requests / result.seconds;
    };
    const hello = await rate(bareUrl);
    const permissions = await rate(`${portal.address}/v1/permissions`);
    const tenants = await rate(`${portal.address}${listPath('tenants', { $top: '10', $count: 'true' })}`);
    record({ name: 'signed-in GET /v1/permissions', value: permissions, unit: 'req/s', baselineName: 'bare Fastify "hello"', baseline: hello, target: '≥ 0.5' });
    record({ name: 'GET /v1/tenants?$top=10&$count=true', value: tenants, unit: 'req/s', baselineName: 'bare Fastify "hello"', baseline: hello });
    // PostgREST's published single-row GET on 2 vCPU, the issue's yardstick for the tenants list.
    record({ name: 'GET /v1/tenants?$top=10&$count=true', value: tenants, unit: 'req/s', baselineName: "PostgREST's published 2,585 req/s", baseline: 2585, target: '≥ 1' });
  } finally {
    await bare.close();
  }
}

/** The work units grid's first request: the default filter, order and expansions, with the count. */
const defaultList = { $count: 'true', $top: '10', $skip: '0', $orderby: 'severityId asc,created desc', $filter: 'stateId in (1) and workUnitTypeId in (1)', $expand: 'tenant,workUnitType' };

async function workUnits(portal: BenchPortal): Promise<void> {
  const admin = await portal.token('admin');
  const operator = await portal.token('operator');
  const p50 = async (token: string, query: Record<string, string>) => (await time(RUNS / 5, async () => (await get(portal, token, listPath('workunits', query))).ms, 5)).p50;
  const adminDefault = await p50(admin, defaultList);
  record({ name: 'work units default list, one-tenant operator', value: await p50(operator, defaultList), unit: 'ms', baselineName: "the admin's (all tenants)", baseline: adminDefault });
  const { $count: _count, ...withoutCount } = defaultList;
  record({ name: 'work units default list with $count', value: adminDefault, unit: 'ms', baselineName: 'without', baseline: await p50(admin, withoutCount), target: '≤ 1.2' });
  const search = await p50(admin, { ...defaultList, $filter: "contains(tolower(title),'unit 4242')" });
  record({ name: 'work units title search "unit 4242"', value: search, unit: 'ms', baselineName: 'the default list', baseline: adminDefault, target: '≤ 20 ms at 1M rows' });
  const page = (skip: number) => ({ $count: 'true', $top: '10', $skip: String(skip), $orderby: 'severityId asc,created desc' });
  record({ name: 'work units page 500 ($skip=5000)', value: await p50(admin, page(5000)), unit: 'ms', baselineName: 'page 1', baseline: await p50(admin, page(0)), target: '≤ 2' });
}

/** A list polled with the tag of the answer held (304) against the same list answered 200: one call at a time, then under load. */
async function polling(portal: BenchPortal, token: string, label: string, pathAndQuery: string): Promise<void> {
  const url = `${portal.address}${pathAndQuery}`;
  const { etag } = await portal.client.get(url, token);
  if (!etag) throw new Error(`${pathAndQuery} answered without an ETag`);
  const revalidated = async () => {
    const answer = await portal.client.get(url, token, etag);
    if (answer.status !== 304) throw new Error(`${pathAndQuery} with its own tag answered ${answer.status}`);
    return answer.ms;
  };
  const { a: notModified, b: full } = await paired(RUNS / 5, revalidated, async () => (await get(portal, token, pathAndQuery)).ms, 5);
  record({ name: `${label} polled, answered 304: p50 over HTTP`, value: notModified.p50, unit: 'ms', baselineName: 'the same list answered 200', baseline: full.p50 });
  const rate = async (conditional?: { ifNoneMatch: string; expect: number }) => {
    await portal.client.load(url, token, CONNECTIONS, 1, conditional);
    const result = await portal.client.load(url, token, CONNECTIONS, LOAD_SECONDS, conditional);
    if (result.failures > 0) throw new Error(`${pathAndQuery}: ${result.failures} unexpected answers under load`);
    return result.requests / result.seconds;
  };
  const fullRate = await rate();
  record({ name: `${label} polled with 304`, value: await rate({ ifNoneMatch: etag, expect: 304 }), unit: 'req/s', baselineName: 'the same polls answered 200', baseline: fullRate });
}

/**
 * What the change counters cost writers: single-row updates of random work units, each its own
 * transaction (each then takes a counter value and sends a notification), from many connections
 * at once, with the counter's trigger on and off in turns.
 */
async function writeCost(portal: BenchPortal): Promise<void> {
  const writers = connect(portal.runtime.databaseUrl, CONNECTIONS);
  try {
    const rate = async (seconds: number) => {
      const until = Date.now() + seconds * 1000;
      let statements = 0;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (Date.now() < until) {
            await sql`UPDATE work_unit SET modified = now() WHERE work_unit_id = ${1 + Math.floor(Math.random() * WORK_UNITS)}`.execute(writers);
            statements++;
          }
        }),
      );
      return statements / seconds;
    };
    const trigger = (on: boolean) => sql.raw(`ALTER TABLE work_unit ${on ? 'ENABLE' : 'DISABLE'} TRIGGER count_change`).execute(writers);
    await rate(1);
    const totals = { on: 0, off: 0 };
    for (const on of [false, true, false, true]) {
      await trigger(on);
      totals[on ? 'on' : 'off'] += await rate(LOAD_SECONDS / 2);
    }
    await trigger(true);
    record({ name: `single-row updates from ${CONNECTIONS} connections, change counter on`, value: totals.on / 2, unit: 'statements/s', baselineName: 'counter off', baseline: totals.off / 2 });
  } finally {
    await writers.destroy();
  }
}

try {
  const admin = await portal.token('admin');
  console.log('API overhead per list call');
  await overhead(portal, admin, 'tenants grid call ($count, $top=10, by name)', { $count: 'true', $top: '10', $skip: '0', $orderby: 'name asc' });
  await overhead(portal, admin, "tenants search (contains 'tenant 1')", { $count: 'true', $top: '10', $skip: '0', $orderby: 'name asc', $filter: "contains(name,'tenant 1')" });
  console.log(`Throughput (${CONNECTIONS} connections, ${LOAD_SECONDS} s each)`);
  await throughput(portal, admin);
  console.log(`Work units at ${WORK_UNITS} rows`);
  await workUnits(portal);
  console.log('Polling with 304 Not Modified');
  await polling(portal, admin, 'work units default list', listPath('workunits', defaultList));
  await polling(portal, admin, 'tenants grid call', listPath('tenants', { $count: 'true', $top: '10', $skip: '0', $orderby: 'name asc' }));
  await writeCost(portal);
} finally {
  await portal.close();
}

const results = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  database: portal.label,
  workUnits: WORK_UNITS,
  figures,
};
const folder = path.join(import.meta.dirname, '..', 'results');
await fs.mkdir(folder, { recursive: true });
const file = path.join(folder, `${results.date.slice(0, 10)}.json`);
await fs.writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\n| figure | value | baseline | ratio | target |\n|---|---|---|---|---|`);
for (const figure of figures) {
  console.log(`| ${figure.name} | ${figure.value.toFixed(2)} ${figure.unit} | ${figure.baselineName}: ${figure.baseline.toFixed(2)} | ${figure.ratio.toFixed(2)} | ${figure.target ?? ''} |`);
}
console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
