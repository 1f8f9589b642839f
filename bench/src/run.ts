import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { searchClause } from '@cfs/contracts/values/odata';
import { WORK_UNIT_SEARCH_FIELDS } from '@cfs/contracts/values/work-units';
import { tenantEntity } from '../../server/src/areas/tenants/resource.js';
import { ALL_TENANTS } from '../../server/src/auth/tenant-scope.js';
import { buildListSql } from '../../server/src/odata/list-query-sql.js';
import { workUnitsResource } from '../../server/src/areas/workunits/resource.js';
import { workUnitItemStatement } from '../../server/src/areas/workunits/queries.js';
import { parseListQuery, type ListQueryInput } from '../../server/src/odata/list-query.js';
import { makeSkipToken } from '../../server/src/odata/list-query-skip-token.js';
import { connect, type Db } from '../../server/src/db/database.js';
import { get, getHere, openBenchPortal, type BenchPortal } from './bench-portal.js';
import { timedGet } from './http-client.js';
import {
  buildBareApp,
  buildWebApp,
  launchBrowser,
  median,
  openFirstScreen,
  serveStatic,
  signIn,
  tempDir,
} from './front-end.js';
import { lighthouseScore, metricValue, type LighthouseScore } from './lighthouse.js';
import { agentPackets, devicesList, ingestion, loadDevices, ruleTest } from './fleet.js';
import { actions } from './actions.js';
import { agentReach } from './agent-reach.js';
import { liveTile } from './live-tile.js';
import { jobQueue } from './jobqueue.js';
import { scaling } from './scaling.js';
import { fleetAgents } from './fleet-agents.js';
import { history } from './history.js';
import { ruleMatches } from './rule-matches.js';
import { loadInstallations, versionReport } from './version-report.js';
import { loadSoftware, softwareList } from './software.js';
import { inTurns, listStatementsTimed, paired, time } from './measure.js';
import { profile, type ProfileSummary } from './profile.js';

/**
 * `npm run bench`: every figure beside a baseline measured in the same run, printed as a table of
 * ratios and written to `bench/results/<date>.json`, so that a regression shows between versions.
 *
 * - API overhead per list call: the tenants list over HTTP (auth gate, list layer, JSON) against
 *   the same SQL sent straight through the driver, calls taken in turns; the caller on the
 *   portal's thread (`getHere`), and also on a thread of its own to show what waking it costs.
 * - Throughput: a signed-in GET /v1/permissions and the tenants list under load, against a bare
 *   Fastify answering "hello" in the same process under the same load.
 * - Where a signed-in list call's time goes on the portal's thread under that load (a CPU profile
 *   summed by part: the portal's files, each library, the runtime).
 * - The work units list at scale: a one-tenant operator's default page against the admin's, a
 *   grid's search, the count's cost (with ÷ without) and deep pages against page 1: page 500 by
 *   $skip, and page 50,000 (or the list's last, when it is shorter) by the $skiptoken of
 *   @odata.nextLink, as the grid pages.
 * - Polling with 304: the work units default list and the tenants list polled with the tag of the
 *   answer held (304, no query) against the same lists answered 200, one at a time and under load;
 *   and what the change counters cost writers: single-row updates from many connections with the
 *   counter's trigger on ÷ off.
 * - The devices grid's poll at 100,000 devices (fleet.ts), live values and location included,
 *   against the same SQL through the driver.
 * - The version report at 100,000 devices × 20 packages (version-report.ts): its first page and
 *   each summary query, p50 and p95, against a devices list page of the same size.
 * - Software across the fleet at 100,000 devices × 10 names (software.ts): the Software page's
 *   first page, a name and version search and one name by version, against the same devices page.
 * - Packets as agents send them (fleet.ts): one and two packets per POST of a tenant token through
 *   10 connections, against single-row commits through as many connections of the driver.
 * - An operation enqueued until the agent has run it (agent-reach.ts): a real agent holding its
 *   configuration call open against the same agent polling every 30 s, in turns.
 * - Packet ingestion (fleet.ts): packets accepted end to end through POST /v1/packets in batches
 *   of 100 with a tenant token, with no rule and with twenty Ingestion rules, against raw COPY of
 *   as many rows into the same history table; and what the rules cost (with ÷ without).
 * - The rule editor's Test (fleet.ts) over a million stored packets, against reading the same
 *   packets' fields through the driver.
 * - The action runner (actions.ts): HTTP actions run per second through the runner against the
 *   same POSTs straight through undici, and a rule match's time to its HTTP action's call (p50, p95).
 * - The job queue (jobqueue.ts): no-op jobs run by the job worker at its default concurrency and
 *   at 24, against a bare SKIP LOCKED claim-and-delete loop through as many connections, in turns.
 * - Past one process (scaling.ts): the list API and ingestion with 1, 2 and 4 api instances (the
 *   built server, ROLE=api) on one PostgreSQL server, per busy core against one instance, and a
 *   read replica's effect on a list's latency under ingestion (DATABASE_READ_URL on ÷ off).
 * - A fleet against one portal (fleet-agents.ts): 1,000 simulated agents' first inventory reports,
 *   then their heartbeats and held configuration calls, then their daily unchanged reports, against
 *   the built server on a PostgreSQL server of its own: the portal's and the database's CPU per agent.
 * - Packet → tile (live-tile.ts): a packet POSTed until its tile on the operator's Blocks screen in
 *   Chromium shows it, with the tab's live stream, against the same screen polling (stream refused).
 * - The browser's first screen (front-end.ts): the gzip JS the operator's work units page loads
 *   before its first grid row, and the time to that row in Chromium with an empty cache, against
 *   a bare React + MUI + Data Grid app built in the same run (`bench/bare-app/`).
 *
 * `BENCH_FULL=1` (or `--full`) loads a million work units (default 200,000). It runs on an embedded PostgreSQL server,
 * or on a database of its own on the server at BENCH_DATABASE_URL. `BENCH_ONLY=ingestion,workunits`
 * runs only the named parts (overhead, throughput, profile, workunits, polling, writes, devices,
 * versionreport, software, agentpackets, agentreach, ingestion, ruletest, rulematches, history, actions, jobqueue, scaling, fleetagents, livetile, frontend), e.g. with a small
 * BENCH_WORK_UNITS while working on one of them; such a run
 * writes `results/<date>-<parts>.json`, beside the whole run's file.
 */
const FULL = process.argv.includes('--full') || process.env.BENCH_FULL === '1';
const WORK_UNITS = Number(process.env.BENCH_WORK_UNITS ?? (FULL ? 1_000_000 : 200_000));
const TENANTS = 20_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 500);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const CONNECTIONS = 10;
/** Simulated agents, the pieces of software in each one's inventory, and the seconds of their steady state measured. */
const FLEET_AGENTS = Number(process.env.BENCH_FLEET_AGENTS ?? 1_000);
const FLEET_SOFTWARE = 800;
const FLEET_SECONDS = Number(process.env.BENCH_FLEET_SECONDS ?? 90);
const FRONT_END_RUNS = Number(process.env.BENCH_FRONT_END_RUNS ?? 7);
/** Lighthouse runs of each page and form factor, in turns. */
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const ONLY = process.env.BENCH_ONLY?.split(',')
  .map((part) => part.trim())
  .filter(Boolean);
const runs = (part: string) => !ONLY || ONLY.includes(part);
const RULE_TEST_PACKETS = Number(process.env.BENCH_RULE_TEST_PACKETS ?? 1_000_000);
const PACKETS_PER_ROUND = Number(process.env.BENCH_PACKETS ?? (FULL ? 200_000 : 50_000));
/** Rounds of each way of ingesting; a multiple of the three ways, so that each goes first, second and last as often. */
/** Packets a round when agents post one or two at a time (each POST its own commit). */
const AGENT_PACKETS_PER_ROUND = Number(process.env.BENCH_AGENT_PACKETS ?? 5_000);
/** Packets sent to each Blocks screen (live, polled) in the live tile part. */
const LIVE_TILE_ROUNDS = Number(process.env.BENCH_LIVE_TILE_ROUNDS ?? 7);
/** Operations enqueued for each agent (held, polling) in the agent reach part. */
const AGENT_REACH_ROUNDS = Number(process.env.BENCH_AGENT_REACH_ROUNDS ?? 5);
const INGESTION_ROUNDS = Math.max(3, Math.ceil(Number(process.env.BENCH_INGESTION_ROUNDS ?? 6) / 3) * 3);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
/** Rule matches the all-tenant list is timed at. */
const RULE_MATCHES = Number(process.env.BENCH_RULE_MATCHES ?? 100_000);
/** The history the series and history reads are timed at (and at a tenth of it first). */
const HISTORY_STORED = Number(process.env.BENCH_PACKETS_STORED ?? 10_000_000);
/** No-op jobs a round of the job queue part, and its rounds each way (even: each way goes first as often). */
const JOBS_PER_ROUND = Number(process.env.BENCH_JOBS ?? 20_000);
const JOB_ROUNDS = Math.max(2, Math.ceil(Number(process.env.BENCH_JOB_ROUNDS ?? 4) / 2) * 2);
/** Jobs the bare loop takes a statement (jobqueue.ts). */
const JOBS_PER_STATEMENT = Number(process.env.BENCH_JOBS_PER_STATEMENT ?? 2);
const VERSION_REPORT_PACKAGES = 20;

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
  console.log(
    `  ${full.name}: ${full.value.toFixed(2)} ${full.unit} ÷ ${full.baselineName} ${full.baseline.toFixed(2)} = ${full.ratio.toFixed(2)}${full.target ? `  (target ${full.target})` : ''}`,
  );
}

/** The deep page reached by keyset: page 50,000 of 10 rows, or the last whole page of a shorter list. */
const DEEP_PAGE = Math.min(50_000, Math.floor(WORK_UNITS / 10));
const DEEP_ORDER = 'severityId asc,created desc';
/** The $skiptoken that starts DEEP_PAGE: what @odata.nextLink of the page before it carries. */
let deepToken = '';

/**
 * Each generated unit's two service level clocks as the engine keeps them, around the clock with
 * the installation's targets (migration 0045): the response clock runs while the unit is New, the
 * resolution clock until it is finished (states 5–7); a running clock is due its target after the
 * unit was created, and breached once that has passed; a fifth of the stopped ones missed.
 */
async function loadClocks(db: Db): Promise<void> {
  await sql`
    INSERT INTO service_level_timer (work_unit_id, kind, tenant_id, severity_id, target_seconds, started, elapsed_seconds,
                                     counted_to, running, stopped, due, breached)
    SELECT u.work_unit_id, k.kind, u.tenant_id, u.severity_id, x.target, u.created, 0, u.created, r.running,
           CASE WHEN r.running THEN NULL ELSE u.modified END,
           CASE WHEN r.running THEN u.created + x.target * interval '1 second' END,
           CASE WHEN (r.running AND u.created + x.target * interval '1 second' < now()) OR (NOT r.running AND random() < 0.2)
                THEN u.created + x.target * interval '1 second' END
    FROM work_unit AS u
    CROSS JOIN (VALUES ('response'), ('resolution')) AS k(kind)
    CROSS JOIN LATERAL (SELECT CASE k.kind WHEN 'response' THEN u.state_id = 1 ELSE u.state_id NOT IN (5, 6, 7) END AS running) AS r
    CROSS JOIN LATERAL (SELECT CASE k.kind
                                 WHEN 'response' THEN (ARRAY[900, 3600, 14400, 28800, 86400])[u.severity_id + 1]
                                 ELSE (ARRAY[14400, 28800, 86400, 259200, 604800])[u.severity_id + 1] END AS target) AS x`.execute(
    db,
  );
}

const started = Date.now();
// The portal serves a build of the web app made now, so the first-screen figures are this tree's.
const webDist = await tempDir('cfs-bench-web-');
await buildWebApp(webDist);
const portal = await openBenchPortal(
  async ({ db }) => {
    await sql`INSERT INTO tenant (name, assignment_groups) SELECT 'Tenant ' || g, 'Service Desk' FROM generate_series(1, ${TENANTS}) AS g`.execute(
      db,
    );
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
         (SELECT array_agg(tenant_id ORDER BY name) AS ids FROM (SELECT tenant_id, name FROM tenant ORDER BY name DESC LIMIT 52) AS few) AS t`.execute(
      db,
    );
    if (runs('workunits')) await loadClocks(db);
    if (runs('devices') || runs('versionreport') || runs('software')) await loadDevices(db, DEVICES);
    if (runs('versionreport')) await loadInstallations(db, VERSION_REPORT_PACKAGES);
    if (runs('software')) await loadSoftware(db);
    // A live database is vacuumed by autovacuum; measure that steady state, not a freshly loaded heap.
    await sql`VACUUM ANALYZE`.execute(db);
    // The last row of the page before DEEP_PAGE in the list's order (severity, newest first, key
    // last), read once here instead of walking 50,000 pages of links to it.
    const { rows } = await sql<{ after: string[] }>`
    SELECT ARRAY[severity_id::text, created::text, work_unit_id::text] AS after FROM work_unit
    ORDER BY severity_id, created DESC, work_unit_id DESC OFFSET ${(DEEP_PAGE - 1) * 10 - 1} LIMIT 1`.execute(db);
    deepToken = makeSkipToken(parseListQuery(workUnitsResource, { $orderby: DEEP_ORDER }), rows[0]?.after ?? []);
  },
  { webDist },
);
console.log(
  `${portal.label}; ${TENANTS} tenants and ${WORK_UNITS} work units loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);

const listPath = (resource: string, query: Record<string, string>) =>
  `/v1/${resource}?${new URLSearchParams(query).toString()}`;

async function overhead(
  portal: BenchPortal,
  token: string,
  label: string,
  query: Record<string, string>,
): Promise<void> {
  const { db } = portal.runtime;
  const path = listPath('tenants', query);
  // The same two statements the route runs, as it runs them, through the driver.
  const statements = buildListSql(
    db.selectFrom('tenant').selectAll(),
    parseListQuery(tenantEntity.resource, query as ListQueryInput),
    ALL_TENANTS,
  );
  const direct = () => listStatementsTimed(db, statements, query.$count === 'true');
  const {
    a: http,
    b: driver,
    difference,
  } = await paired(RUNS, async () => (await getHere(portal, token, path)).ms, direct);
  record({
    name: `${label}: p50 over HTTP`,
    value: http.p50,
    unit: 'ms',
    baselineName: 'the same SQL through the driver',
    baseline: driver.p50,
  });
  record({
    name: `${label}: overhead per call (p50 of paired calls)`,
    value: difference.p50,
    unit: 'ms',
    baselineName: 'the SQL',
    baseline: driver.p50,
    target: '≤ 0.35 ms',
  });
  record({
    name: `${label}: overhead per call (p95 of paired calls)`,
    value: difference.p95,
    unit: 'ms',
    baselineName: 'the SQL',
    baseline: driver.p95,
  });
  const apart = await paired(RUNS, async () => (await get(portal, token, path)).ms, direct);
  record({
    name: `${label}: overhead per call, caller on another thread (p50)`,
    value: apart.difference.p50,
    unit: 'ms',
    baselineName: 'the SQL',
    baseline: apart.b.p50,
  });
  // What HTTP itself costs on this machine: a bare Fastify route in the same process that runs the
  // same statements through the same driver and answers their rows as JSON, to the same client.
  const bare = Fastify();
  bare.get('/list', async () => {
    const rows = await statements.rows.execute(db);
    const count = query.$count === 'true' ? await statements.count.execute(db) : undefined;
    return { value: rows.rows, count: count?.rows };
  });
  const bareUrl = `${await bare.listen({ port: 0, host: '127.0.0.1' })}/list`;
  try {
    const floor = await paired(RUNS, async () => (await timedGet(portal.here, bareUrl, token)).ms, direct);
    record({
      name: `${label}: a bare Fastify route running the same SQL, overhead per call (p50)`,
      value: floor.difference.p50,
      unit: 'ms',
      baselineName: 'the SQL',
      baseline: floor.b.p50,
    });
    const layers = await paired(
      RUNS,
      async () => (await getHere(portal, token, path)).ms,
      async () => (await timedGet(portal.here, bareUrl, token)).ms,
    );
    record({
      name: `${label}: the portal's layers over that bare route (p50 of paired calls)`,
      value: layers.difference.p50,
      unit: 'ms',
      baselineName: 'the bare route',
      baseline: layers.b.p50,
    });
  } finally {
    await bare.close();
  }
}

/**
 * Requests a second under load, each way in turns: the portal's calls against a bare Fastify route
 * of the same process (a "hello", and the same statements through the same driver answered as
 * JSON), so that the machine's state at the moment weighs on both alike.
 */
async function throughput(portal: BenchPortal, token: string): Promise<void> {
  const { db } = portal.runtime;
  const tenantsQuery = { $top: '10', $count: 'true' };
  const tenants = buildListSql(
    db.selectFrom('tenant').selectAll(),
    parseListQuery(tenantEntity.resource, tenantsQuery as ListQueryInput),
    ALL_TENANTS,
  );
  const unit = await db
    .selectFrom('work_unit')
    .select('work_unit_id')
    .orderBy('work_unit_id')
    .limit(1)
    .executeTakeFirstOrThrow();
  const item = workUnitItemStatement(db, ALL_TENANTS, unit.work_unit_id);
  const bare = Fastify();
  bare.get('/hello', () => ({ hello: 'world' }));
  bare.get('/tenants', async () => {
    const rows = await tenants.rows.execute(db);
    const count = await tenants.count.execute(db);
    return { value: rows.rows, count: count.rows };
  });
  bare.get('/item', async (_request, reply) => {
    const found = await db.executeQuery(item);
    return reply.type('application/json').send(found.rows[0]?.row);
  });
  const bareAt = await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    const ways = {
      hello: `${bareAt}/hello`,
      permissions: `${portal.address}/v1/permissions`,
      tenants: `${portal.address}${listPath('tenants', tenantsQuery)}`,
      bareTenants: `${bareAt}/tenants`,
      item: `${portal.address}/v1/workunits/${unit.work_unit_id}`,
      bareItem: `${bareAt}/item`,
    };
    const totals = new Map<string, { requests: number; seconds: number }>();
    for (const url of Object.values(ways)) await portal.client.load(url, token, CONNECTIONS, 1);
    const urls = Object.values(ways);
    for (let round = 0; round < 2; round++) {
      for (let index = 0; index < urls.length; index++) {
        const url = urls[(round * 3 + index) % urls.length]!;
        const result = await portal.client.load(url, token, CONNECTIONS, LOAD_SECONDS / 2);
        if (result.failures > 0) throw new Error(`${url}: ${result.failures} failed requests under load`);
        const total = totals.get(url) ?? { requests: 0, seconds: 0 };
        totals.set(url, { requests: total.requests + result.requests, seconds: total.seconds + result.seconds });
      }
    }
    const rate = (url: string) => totals.get(url)!.requests / totals.get(url)!.seconds;
    record({
      name: 'signed-in GET /v1/permissions',
      value: rate(ways.permissions),
      unit: 'req/s',
      baselineName: 'bare Fastify "hello"',
      baseline: rate(ways.hello),
      target: '≥ 0.5',
    });
    record({
      name: 'GET /v1/tenants?$top=10&$count=true',
      value: rate(ways.tenants),
      unit: 'req/s',
      baselineName: 'a bare Fastify route running the same SQL',
      baseline: rate(ways.bareTenants),
      target: '≥ 0.8',
    });
    // PostgREST's published single-row GET on 2 vCPU, the issue's yardstick for the tenants list.
    record({
      name: 'GET /v1/tenants?$top=10&$count=true',
      value: rate(ways.tenants),
      unit: 'req/s',
      baselineName: "PostgREST's published 2,585 req/s",
      baseline: 2585,
      target: '≥ 1',
    });
    record({
      name: 'GET /v1/workunits/{id} (one work unit, every expansion)',
      value: rate(ways.item),
      unit: 'req/s',
      baselineName: 'a bare Fastify route running the same SQL',
      baseline: rate(ways.bareItem),
      target: '≥ 0.6',
    });
  } finally {
    await bare.close();
  }
}

/** The work units grid's first request: the default filter, order and expansions, with the count. */
const defaultList = {
  $count: 'true',
  $top: '10',
  $skip: '0',
  $orderby: 'severityId asc,created desc',
  $filter: 'stateId in (1) and workUnitTypeId in (1)',
  $expand: 'tenant,workUnitType',
};

async function workUnits(portal: BenchPortal): Promise<void> {
  const admin = await portal.token('admin');
  const operator = await portal.token('operator');
  const p50 = async (token: string, query: Record<string, string>) =>
    (await time(RUNS / 5, async () => (await get(portal, token, listPath('workunits', query))).ms, 5)).p50;
  const adminDefault = await p50(admin, defaultList);
  record({
    name: 'work units default list, one-tenant operator',
    value: await p50(operator, defaultList),
    unit: 'ms',
    baselineName: "the admin's (all tenants)",
    baseline: adminDefault,
  });
  const { $count: _count, ...withoutCount } = defaultList;
  record({
    name: 'work units default list with $count',
    value: adminDefault,
    unit: 'ms',
    baselineName: 'without',
    baseline: await p50(admin, withoutCount),
    target: '≤ 1.2',
  });
  // The default list with the search box filled in, as the grid sends it: "unit 4242" holds a word
  // every generated title has; "4242" is a number, so the id is searched too.
  for (const term of ['unit 4242', '4242']) {
    const search = await p50(admin, {
      ...defaultList,
      $filter: `${defaultList.$filter} and ${searchClause(term, false, WORK_UNIT_SEARCH_FIELDS)}`,
    });
    record({
      name: `work units search "${term}" (the grid's OR over every search field)`,
      value: search,
      unit: 'ms',
      baselineName: 'the default list',
      baseline: adminDefault,
      target: '≤ 20 ms at 1M rows',
    });
  }
  // The Service Level chip's "Breaching Within 1 h" on the default list, as the grid sends it
  // (web: SERVICE_LEVEL_CONDITIONS): a running clock of the unit due within the next hour.
  const from = new Date().toISOString();
  const to = new Date(Date.now() + 3_600_000).toISOString();
  const breaching = ['responseClock', 'resolutionClock']
    .map((clock) => `(${clock}/due ge ${from} and ${clock}/due le ${to})`)
    .join(' or ');
  record({
    name: 'work units "breaching within 1 h" (the Service Level chip on the default list)',
    value: await p50(admin, { ...defaultList, $filter: `${defaultList.$filter} and (${breaching})` }),
    unit: 'ms',
    baselineName: 'the default list',
    baseline: adminDefault,
    target: '≤ 2',
  });
  record({
    name: 'work units "breached" (the Service Level chip on the default list)',
    value: await p50(admin, {
      ...defaultList,
      $filter: `${defaultList.$filter} and (responseClock/breached ne null or resolutionClock/breached ne null)`,
    }),
    unit: 'ms',
    baselineName: 'the default list',
    baseline: adminDefault,
  });
  record({
    name: 'work units sorted by when resolution is due (the Resolution column)',
    value: await p50(admin, { ...defaultList, $orderby: 'resolutionClock/due asc' }),
    unit: 'ms',
    baselineName: 'the default list',
    baseline: adminDefault,
  });
  const page = (skip: number) => ({ $count: 'true', $top: '10', $skip: String(skip), $orderby: DEEP_ORDER });
  const first = await p50(admin, page(0));
  record({
    name: 'work units page 500 ($skip=5000)',
    value: await p50(admin, page(5000)),
    unit: 'ms',
    baselineName: 'page 1',
    baseline: first,
    target: '≤ 2',
  });
  const deep = { $count: 'true', $top: '10', $orderby: DEEP_ORDER, $skiptoken: deepToken };
  record({
    name: `work units page ${DEEP_PAGE.toLocaleString('en-US')} by $skiptoken`,
    value: await p50(admin, deep),
    unit: 'ms',
    baselineName: 'page 1',
    baseline: first,
    target: '≤ 2',
  });
}

let loadProfile: ProfileSummary | undefined;
async function whereTheTimeGoes(portal: BenchPortal, token: string): Promise<void> {
  const url = `${portal.address}${listPath('tenants', { $top: '10', $count: 'true' })}`;
  loadProfile = await profile(async () => (await portal.client.load(url, token, CONNECTIONS, LOAD_SECONDS)).requests);
  console.log(
    `  GET /v1/tenants?$top=10&$count=true under load, ${loadProfile.requests} calls: ms of the portal's thread per call`,
  );
  for (const { part, ms } of loadProfile.parts.slice(0, 14)) console.log(`    ${ms.toFixed(3)}  ${part}`);
  console.log('  functions (own time per call):');
  for (const { name, ms } of loadProfile.functions.slice(0, 10)) console.log(`    ${ms.toFixed(3)}  ${name}`);
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
  const { a: notModified, b: full } = await paired(
    RUNS / 5,
    revalidated,
    async () => (await get(portal, token, pathAndQuery)).ms,
    5,
  );
  record({
    name: `${label} polled, answered 304: p50 over HTTP`,
    value: notModified.p50,
    unit: 'ms',
    baselineName: 'the same list answered 200',
    baseline: full.p50,
  });
  const rate = async (conditional?: { ifNoneMatch: string; expect: number }) => {
    await portal.client.load(url, token, CONNECTIONS, 1, conditional);
    const result = await portal.client.load(url, token, CONNECTIONS, LOAD_SECONDS, conditional);
    if (result.failures > 0) throw new Error(`${pathAndQuery}: ${result.failures} unexpected answers under load`);
    return result.requests / result.seconds;
  };
  const fullRate = await rate();
  record({
    name: `${label} polled with 304`,
    value: await rate({ ifNoneMatch: etag, expect: 304 }),
    unit: 'req/s',
    baselineName: 'the same polls answered 200',
    baseline: fullRate,
  });
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
            await sql`UPDATE work_unit SET modified = now() WHERE work_unit_id = ${1 + Math.floor(Math.random() * WORK_UNITS)}`.execute(
              writers,
            );
            statements++;
          }
        }),
      );
      return statements / seconds;
    };
    const trigger = (on: boolean) =>
      sql.raw(`ALTER TABLE work_unit ${on ? 'ENABLE' : 'DISABLE'} TRIGGER count_change`).execute(writers);
    await rate(1);
    const totals = { on: 0, off: 0 };
    for (const on of [false, true, false, true]) {
      await trigger(on);
      totals[on ? 'on' : 'off'] += await rate(LOAD_SECONDS / 2);
    }
    await trigger(true);
    record({
      name: `single-row updates from ${CONNECTIONS} connections, change counter on`,
      value: totals.on / 2,
      unit: 'statements/s',
      baselineName: 'counter off',
      baseline: totals.off / 2,
    });
  } finally {
    await writers.destroy();
  }
}

async function frontEnd(portal: BenchPortal): Promise<void> {
  const bareDist = await tempDir('cfs-bench-bare-');
  const browser = await launchBrowser();
  try {
    await buildBareApp(bareDist);
    const bare = await serveStatic(bareDist);
    try {
      const { storageState, home } = await signIn(browser, portal.publicUrl, 'operator');
      const portalPage = () =>
        openFirstScreen(browser, `${portal.publicUrl}${home}/workunitsv2`, webDist, storageState);
      const barePage = () => openFirstScreen(browser, `${bare.url}/`, bareDist);
      // A first visit each warms the servers and Chromium; then the two take turns, each first as often.
      const { as: portalRuns, bs: bareRuns } = await inTurns(FRONT_END_RUNS, portalPage, barePage, 1);
      const kB = (bytes: number) => bytes / 1024;
      const portalJs = median(portalRuns.map((run) => run.scriptGzipBytes));
      const bareJs = median(bareRuns.map((run) => run.scriptGzipBytes));
      const sample = portalRuns[0];
      if (sample) {
        console.log(
          `  the work units page asked for ${sample.scripts.length} scripts and made ${sample.apiCalls.length} API calls before its first row:`,
        );
        for (const call of sample.apiCalls) console.log(`    ${call.length > 110 ? `${call.slice(0, 110)}…` : call}`);
        const scriptsEnd = Math.max(
          ...sample.timeline.filter((entry) => entry.name.endsWith('.js')).map((entry) => entry.end),
        );
        console.log(
          `  its scripts were in at ${scriptsEnd.toFixed(0)} ms, its first row at ${sample.firstRowMs.toFixed(0)} ms; its calls (start → end, ms):`,
        );
        for (const entry of sample.timeline.filter((item) => !item.name.endsWith('.js')))
          console.log(`    ${entry.start.toFixed(0)} → ${entry.end.toFixed(0)} ${entry.name}`);
        console.log('  its largest scripts (gzip kB):');
        const largest = Object.entries(sample.scriptSizes).sort(([, a], [, b]) => b - a);
        for (const [script, size] of largest.slice(0, 12)) console.log(`    ${(size / 1024).toFixed(1)} ${script}`);
      }
      record({
        name: 'JS before the first work units row (gzip)',
        value: kB(portalJs),
        unit: 'kB',
        baselineName: 'bare React + MUI + Data Grid app',
        baseline: kB(bareJs),
        target: '≤ 1.3',
      });
      record({
        name: `time to the first work units row, empty cache (median of ${FRONT_END_RUNS})`,
        value: median(portalRuns.map((run) => run.firstRowMs)),
        unit: 'ms',
        baselineName: 'bare React + MUI + Data Grid app',
        baseline: median(bareRuns.map((run) => run.firstRowMs)),
        target: '≤ 1.3',
      });
      const stored = storageState.origins.find((origin) => origin.origin === new URL(portal.publicUrl).origin);
      for (const formFactor of ['mobile', 'desktop'] as const) {
        const { as: portalScores, bs: bareScores } = await inTurns(
          LIGHTHOUSE_RUNS,
          () => lighthouseScore(`${portal.publicUrl}${home}/workunitsv2`, formFactor, stored?.localStorage, '/healthz'),
          () => lighthouseScore(`${bare.url}/`, formFactor),
        );
        const lcp = (scores: LighthouseScore[]) =>
          median(scores.map((score) => metricValue(score, 'largest-contentful-paint'))).toFixed(0);
        const tbt = (scores: LighthouseScore[]) =>
          median(scores.map((score) => metricValue(score, 'total-blocking-time'))).toFixed(0);
        console.log(
          `  Lighthouse ${formFactor}: the work units page's LCP ${lcp(portalScores)} ms and TBT ${tbt(portalScores)} ms, the bare app's ${lcp(bareScores)} ms and ${tbt(bareScores)} ms; what would bring the page's LCP forward:`,
        );
        const sample = portalScores[0];
        for (const saving of sample?.lcpSavings.slice(0, 6) ?? [])
          console.log(`    ${saving.ms.toFixed(0)} ms  ${saving.title}`);
        const metricLine = (score: LighthouseScore) =>
          score.metrics
            .map(
              (metric) =>
                `${metric.id} ${metric.value.toFixed(metric.id.startsWith('cumulative') ? 3 : 0)} (${metric.score.toFixed(0)})`,
            )
            .join(', ');
        if (sample) console.log(`    the page's metrics (score): ${metricLine(sample)}`);
        if (bareScores[0]) console.log(`    the bare app's: ${metricLine(bareScores[0])}`);
        if (sample?.lcpElement) {
          console.log(`    its LCP element: ${sample.lcpElement.slice(0, 160)}`);
          console.log(
            `    its phases: ${sample.lcpPhases.map((phase) => `${phase.phase} ${phase.ms.toFixed(0)} ms`).join(', ')}`,
          );
        }
        record({
          name: `Lighthouse performance, signed-in work units page, ${formFactor} (median of ${LIGHTHOUSE_RUNS})`,
          value: median(portalScores.map((score) => score.performance)),
          unit: 'points',
          baselineName: 'bare React + MUI + Data Grid app',
          baseline: median(bareScores.map((score) => score.performance)),
          target: 'within 10 points of the bare app',
        });
      }
    } finally {
      await bare.close();
    }
  } finally {
    await browser.close();
    await fs.rm(bareDist, { recursive: true, force: true });
  }
}

try {
  const admin = await portal.token('admin');
  if (runs('overhead')) {
    console.log('API overhead per list call');
    await overhead(portal, admin, 'tenants grid call ($count, $top=10, by name)', {
      $count: 'true',
      $top: '10',
      $skip: '0',
      $orderby: 'name asc',
    });
    await overhead(portal, admin, "tenants search (contains 'tenant 1')", {
      $count: 'true',
      $top: '10',
      $skip: '0',
      $orderby: 'name asc',
      $filter: "contains(name,'tenant 1')",
    });
  }
  if (runs('throughput')) {
    console.log(`Throughput (${CONNECTIONS} connections, ${LOAD_SECONDS} s each)`);
    await throughput(portal, admin);
  }
  if (runs('profile')) {
    console.log('Where the time goes');
    await whereTheTimeGoes(portal, admin);
  }
  if (runs('workunits')) {
    console.log(`Work units at ${WORK_UNITS} rows`);
    await workUnits(portal);
  }
  if (runs('polling')) {
    console.log('Polling with 304 Not Modified');
    await polling(portal, admin, 'work units default list', listPath('workunits', defaultList));
    await polling(
      portal,
      admin,
      'tenants grid call',
      listPath('tenants', { $count: 'true', $top: '10', $skip: '0', $orderby: 'name asc' }),
    );
  }
  if (runs('writes')) await writeCost(portal);
  if (runs('devices')) {
    console.log(`Devices at ${DEVICES.toLocaleString('en-US')} devices`);
    await devicesList(portal, record, { runs: RUNS, devices: DEVICES });
  }
  if (runs('versionreport')) {
    console.log(`Version report at ${DEVICES.toLocaleString('en-US')} devices × ${VERSION_REPORT_PACKAGES} packages`);
    await versionReport(portal, record, { runs: RUNS / 5, devices: DEVICES, packages: VERSION_REPORT_PACKAGES });
  }
  if (runs('software')) {
    console.log(`Software across the fleet at ${DEVICES.toLocaleString('en-US')} devices × 10 names`);
    await softwareList(portal, record, { runs: RUNS / 5, devices: DEVICES });
  }
  if (runs('agentpackets')) {
    console.log(
      `Packets as agents send them (${AGENT_PACKETS_PER_ROUND.toLocaleString('en-US')} packets a round, ${INGESTION_ROUNDS} rounds each way, in turns)`,
    );
    await agentPackets(portal, record, {
      packets: AGENT_PACKETS_PER_ROUND,
      entities: 1_000,
      connections: CONNECTIONS,
      rounds: INGESTION_ROUNDS,
    });
  }
  if (runs('agentreach')) {
    console.log(`An operation enqueued until the agent has run it (${AGENT_REACH_ROUNDS} rounds each way, in turns)`);
    await agentReach(portal, record, { rounds: AGENT_REACH_ROUNDS });
  }
  if (runs('ingestion')) {
    console.log(
      `Packet ingestion (${PACKETS_PER_ROUND.toLocaleString('en-US')} packets a round, ${INGESTION_ROUNDS} rounds each way, in turns)`,
    );
    await ingestion(portal, record, {
      packets: PACKETS_PER_ROUND,
      entities: 5_000,
      batch: 100,
      connections: CONNECTIONS,
      rounds: INGESTION_ROUNDS,
    });
  }
  if (runs('ruletest')) {
    console.log(`The rule editor's Test over ${RULE_TEST_PACKETS.toLocaleString('en-US')} stored packets`);
    await ruleTest(portal, record, { packets: RULE_TEST_PACKETS, entities: 1_000 });
  }
  if (runs('rulematches')) {
    console.log(`Rule matches, every tenant against one, at ${RULE_MATCHES.toLocaleString('en-US')} matches`);
    await ruleMatches(portal, record, { matches: RULE_MATCHES, runs: RUNS / 5 });
  }
  if (runs('history')) {
    console.log(
      `One entity's series and history as the stored history grows to ${HISTORY_STORED.toLocaleString('en-US')} packets`,
    );
    await history(portal, record, { stored: HISTORY_STORED, runs: RUNS / 5 });
  }
  if (runs('actions')) {
    console.log('The action runner (HTTP actions to 127.0.0.1)');
    await actions(portal, record, { runs: 500, concurrency: 8, matches: 40 });
  }
  if (runs('jobqueue')) {
    console.log(
      `The job queue (${JOBS_PER_ROUND.toLocaleString('en-US')} no-op jobs a round, ${JOB_ROUNDS} rounds each way, in turns)`,
    );
    await jobQueue(portal, record, {
      jobs: JOBS_PER_ROUND,
      rounds: JOB_ROUNDS,
      concurrencies: [24],
      perStatement: JOBS_PER_STATEMENT,
    });
  }
  if (runs('scaling')) {
    console.log(
      'Past one process: 1, 2 and 4 api instances on one PostgreSQL server, and a read replica (the built server)',
    );
    await scaling(record, { seconds: LOAD_SECONDS, connections: CONNECTIONS, batch: 100 });
  }
  if (runs('fleetagents')) {
    console.log(
      `A fleet against one portal: ${FLEET_AGENTS.toLocaleString('en-US')} simulated agents (the built server)`,
    );
    await fleetAgents(record, { agents: FLEET_AGENTS, software: FLEET_SOFTWARE, seconds: FLEET_SECONDS });
  }
  if (runs('livetile')) {
    console.log(`A packet until its tile shows it in Chromium (${LIVE_TILE_ROUNDS} rounds each way, in turns)`);
    await liveTile(portal, record, { rounds: LIVE_TILE_ROUNDS });
  }
  if (runs('frontend')) {
    console.log(`The browser's first screen (${FRONT_END_RUNS} runs each, in turns)`);
    await frontEnd(portal);
  }
} finally {
  await portal.close();
  await fs.rm(webDist, { recursive: true, force: true });
}

const results = {
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  },
  database: portal.label,
  workUnits: WORK_UNITS,
  figures,
  profile: loadProfile,
};
const folder = path.join(import.meta.dirname, '..', 'results');
await fs.mkdir(folder, { recursive: true });
// A run of chosen parts is kept beside the day's whole run, not over it.
const file = path.join(folder, `${results.date.slice(0, 10)}${ONLY ? `-${ONLY.join('-')}` : ''}.json`);
await fs.writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\n| figure | value | baseline | ratio | target |\n|---|---|---|---|---|`);
for (const figure of figures) {
  console.log(
    `| ${figure.name} | ${figure.value.toFixed(2)} ${figure.unit} | ${figure.baselineName}: ${figure.baseline.toFixed(2)} | ${figure.ratio.toFixed(2)} | ${figure.target ?? ''} |`,
  );
}
console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
