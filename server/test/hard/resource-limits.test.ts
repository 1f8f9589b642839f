import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { Agent, fetch, Response, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MACHINE_RATE_LIMIT_PER_MINUTE } from '@cfs/contracts/agent';
import { ACCESS_REQUEST_RATE_LIMIT } from '@cfs/contracts/access-request';
import { MAX_PAGE_SIZE, MAX_SKIP } from '@cfs/contracts/constants';
import { generateDeviceCredential } from '../../src/auth/machine-callers.js';
import { ACCOUNT_FAILURE_LIMIT } from '../../src/auth/embedded/sign-in.js';
import { connect } from '../../src/db/database.js';
import { DEMO } from '../../src/db/demo-ids.js';
import { MAX_FILTER_CONDITIONS } from '../../src/odata/list-query-filter.js';
import { reportFigures } from '../figures.js';
import { insertDevice } from '../fleet-factories.js';
import { startMeasuredPortal, type MeasuredPortal } from '../processes.js';

/*
 * Resource limits of the real server under load (issue 15, item 8): oversize bodies, huge pages
 * and expensive filters are refused or cut off by the statement timeout; sign-in, the access
 * request and the machine API (agents, packets) are limited per address and per credential with
 * 429 and Retry-After; no other 5xx; the p99 and peak memory of the process; and one tenant's
 * heavy list queries do not raise another tenant's p99 more than twice.
 */
const STATEMENT_TIMEOUT_MS = 2000;
const WORK_UNITS = 100_000;
const UPLOAD_MAX_MB = 1;
const MB = 1024 * 1024;
/**
 * The machine API's limits, lowered from the default (MACHINE_RATE_LIMIT_PER_MINUTE) so that a
 * loaded machine still sends past them within their minute: per tenant token, a tenth per device
 * credential, twice per address.
 */
const MACHINE_LIMIT = MACHINE_RATE_LIMIT_PER_MINUTE / 5;

let portal: MeasuredPortal;
let deviceCredential = '';
let tenantToken = '';
let fabrikamWorkUnitId = 0;

/** 5xx answers other than the statement timeout's 503, over every request of the suite. */
let unexpected5xx = 0;
const figures = {
  oversizeAccepted: 0,
  stuckConnections: 0,
  hugePagesServed: 0,
  exportedRows: 0,
  filtersUncut: 0,
  limitsMissing: [] as string[],
  p99: 0,
  aloneP99: 0,
  ratio: 0,
};

beforeAll(async () => {
  const device = generateDeviceCredential();
  deviceCredential = device.credential;
  portal = await startMeasuredPortal({
    env: {
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      PACKAGE_UPLOAD_MAX_MB: String(UPLOAD_MAX_MB),
      FEATURES: 'I3ERequestForm',
      // The suite stands for many clients behind one reverse proxy: X-Forwarded-For names each.
      TRUST_PROXY: '127.0.0.1',
      MACHINE_RATE_LIMIT_PER_MINUTE: String(MACHINE_LIMIT),
    },
    load: async (db) => {
      // Contoso holds many work units, so that its searches are costly; Fabrikam keeps the demo's few.
      await sql`
        INSERT INTO work_unit (tenant_id, work_unit_type_id, title, description, severity_id, state_id, created_by, modified_by)
        SELECT ${DEMO.contoso}::uuid, 1, 'Load ' || n || ' ' || md5(n::text), repeat(md5(n::text), 8), 1 + n % 4, 1, 'load', 'load'
        FROM generate_series(1, ${WORK_UNITS}) AS n`.execute(db);
      await sql`ANALYZE work_unit`.execute(db);
      // A Contoso device with a credential, as its promotion would hand it out.
      const { device_id: deviceId } = await insertDevice({ db }, DEMO.contoso, DEMO.contosoProduction);
      await db.updateTable('device').set({ credential_hash: device.hash }).where('device_id', '=', deviceId).execute();
    },
  });
  const token = await call('PUT', '/v1/tokens', {
    user: 'admin',
    body: { tenantId: DEMO.contoso, name: 'Load script', lifetimeYears: 1 },
  });
  expect(token.status, await token.clone().text()).toBe(200);
  tenantToken = ((await token.json()) as { generatedToken: string }).generatedToken;
  const fabrikam = await call('GET', '/v1/workunits?$top=1', { user: 'operator2' });
  fabrikamWorkUnitId = ((await fabrikam.json()) as { value: { workUnitId: number }[] }).value[0]?.workUnitId ?? 0;
}, 300_000);

afterAll(async () => {
  await portal?.stop();
});

/** A request over HTTP as a user, a bearer credential or anonymously, from an address of X-Forwarded-For. */
async function call(
  method: string,
  path: string,
  options: {
    user?: string;
    bearer?: string;
    body?: unknown;
    raw?: string | Buffer | ReadableStream<Uint8Array>;
    type?: string;
    from?: string;
    headers?: Record<string, string>;
    dispatcher?: Dispatcher;
    signal?: AbortSignal;
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.user) headers.authorization = `Bearer ${await portal.token(options.user)}`;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.from) headers['x-forwarded-for'] = options.from;
  const body = options.body !== undefined ? JSON.stringify(options.body) : options.raw;
  if (body !== undefined) headers['content-type'] = options.type ?? 'application/json';
  const response = await fetch(`${portal.url}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(body !== undefined ? { body, duplex: 'half' as const } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.status >= 500 && !(response.status === 503 && (await response.clone().text()).includes('took too long')))
    unexpected5xx += 1;
  return response;
}

let addressCounter = 0;
/** A client address of its own (10.x.y.z), so that a per-address limit does not answer for another. */
function newAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

interface LoadResult {
  statuses: Record<string, number>;
  p99: number;
  requests: number;
}

/**
 * An autocannon run against the portal, bounded by `amount` requests or `seconds` (whichever ends
 * first; a run of `amount` is stopped after `maxSeconds` at the latest). 5xx answers are counted
 * into the suite's figure unless `expect503` says the statement timeout's 503s are expected.
 */
async function load(options: {
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds?: number;
  amount?: number;
  maxSeconds?: number;
  /** Changes each request's headers (a credential or an address per request). */
  vary?: () => Record<string, string>;
  expect503?: boolean;
}): Promise<LoadResult> {
  const baseHeaders = { ...options.headers, ...(options.body ? { 'content-type': 'application/json' } : {}) };
  const cannon: autocannon.Options = {
    url: `${portal.url}${options.path}`,
    method: options.method ?? 'GET',
    connections: options.connections,
    // A request may wait its tenant's turn behind costly ones: only a missing answer is a failure.
    timeout: 30,
    headers: baseHeaders,
    ...(options.body ? { body: options.body } : {}),
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? 5 }),
    ...(options.vary
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                headers: { ...baseHeaders, ...options.vary?.() },
              }),
            },
          ],
        }
      : {}),
  };
  let stopAt: NodeJS.Timeout | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(cannon, (error: unknown, finished: autocannon.Result) =>
      error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(finished),
    );
    stopAt = setTimeout(() => instance.stop(), (options.maxSeconds ?? (options.seconds ?? 5) + 5) * 1000);
  });
  clearTimeout(stopAt);
  const statuses: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stats.count ?? 0;
  for (const [code, count] of Object.entries(statuses)) {
    if (Number(code) >= 500 && !(options.expect503 && code === '503')) unexpected5xx += count;
  }
  // Requests that got no answer at all (reset, timed out) count as server errors too.
  unexpected5xx += result.errors + result.timeouts;
  return { statuses, p99: result.latency.p99, requests: result.requests.total };
}

/** `bytes` of 'x' sent in chunks, without a Content-Length. */
function streamOf(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

describe('bodies', () => {
  test('larger than a route takes are refused with 413, before the portal holds them', async () => {
    const big = (megabytes: number) => 'x'.repeat(megabytes * MB);
    const json = (megabytes: number) => JSON.stringify({ title: big(megabytes) });
    const attempts: { name: string; response: (dispatcher: Dispatcher) => Promise<Response> }[] = [
      {
        name: 'a work unit (JSON, 6 MB)',
        response: (dispatcher) => call('PUT', '/api/v1/workunits', { user: 'operator', raw: json(6), dispatcher }),
      },
      {
        name: 'a JSON Patch (6 MB)',
        response: (dispatcher) =>
          call('PATCH', `/v1/workunits/${fabrikamWorkUnitId}`, {
            user: 'operator2',
            raw: json(6),
            type: 'application/json-patch+json',
            dispatcher,
          }),
      },
      {
        name: 'the access request (6 MB)',
        response: (dispatcher) =>
          call('POST', '/api/v1/accessrequest', { from: newAddress(), raw: json(6), dispatcher }),
      },
      {
        name: 'the sign-in form (6 MB)',
        response: (dispatcher) =>
          call('POST', '/oidc/interaction/none/login', {
            from: newAddress(),
            raw: `username=${big(6)}`,
            type: 'application/x-www-form-urlencoded',
            dispatcher,
          }),
      },
      {
        name: "the provider's token endpoint (6 MB)",
        response: (dispatcher) =>
          call('POST', '/oidc/token', {
            from: newAddress(),
            raw: `code=${big(6)}`,
            type: 'application/x-www-form-urlencoded',
            dispatcher,
          }),
      },
      {
        name: 'packets (33 MB)',
        response: (dispatcher) =>
          call('POST', '/v1/packets', { bearer: tenantToken, from: newAddress(), raw: json(33), dispatcher }),
      },
      {
        name: 'agent logs (6 MB)',
        response: (dispatcher) =>
          call('POST', '/v1/agent/logs', { bearer: deviceCredential, from: newAddress(), raw: json(6), dispatcher }),
      },
      {
        name: 'a control set (33 MB)',
        response: (dispatcher) =>
          call('PUT', `/v1/controlsets?tenantId=${DEMO.contoso}`, { user: 'admin', raw: json(33), dispatcher }),
      },
      {
        name: 'a work unit streamed without a length (6 MB)',
        response: (dispatcher) =>
          call('PUT', '/api/v1/workunits', { user: 'operator', raw: streamOf(6 * MB), dispatcher }),
      },
      {
        name: "the provider's token endpoint, streamed without a length (6 MB)",
        response: (dispatcher) =>
          call('POST', '/oidc/token', {
            from: newAddress(),
            raw: streamOf(6 * MB),
            type: 'application/x-www-form-urlencoded',
            dispatcher,
          }),
      },
      {
        name: `a package file (${UPLOAD_MAX_MB + 1} MB, PACKAGE_UPLOAD_MAX_MB=${UPLOAD_MAX_MB})`,
        response: (dispatcher) => {
          const boundary = `----cfs${randomBytes(8).toString('hex')}`;
          const field = (name: string, value: string) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
          const form = Buffer.concat([
            Buffer.from(
              `${field('packageId', '00000000-0000-4000-8000-000000000000')}${field('version', '1.0.0')}${field('tenantId', DEMO.contoso)}`,
            ),
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="file-0"; filename="tool.zip"\r\nContent-Type: application/zip\r\n\r\n`,
            ),
            Buffer.alloc((UPLOAD_MAX_MB + 1) * MB, 120),
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]);
          return call('POST', '/v1/packages/upload', {
            user: 'admin',
            raw: form,
            type: `multipart/form-data; boundary=${boundary}`,
            dispatcher,
          });
        },
      },
    ];
    const accepted: string[] = [];
    const stuck: string[] = [];
    for (const attempt of attempts) {
      // One connection per attempt: the next request on it must be answered, not left behind the refused body.
      const connection = new Agent({ connections: 1 });
      const response = await attempt.response(connection).catch((error: unknown) => error);
      // The portal may end the connection while the body still flows, once it has refused it.
      if (response instanceof Response) {
        const text = (await response.text()).slice(0, 300);
        // The identity provider's endpoints answer OAuth's way: 400 invalid_request past 56 KB.
        const refusedByProvider =
          response.status === 400 && /"error":"invalid_request"/.test(text) && /request body/.test(text);
        if (response.status !== 413 && !refusedByProvider) accepted.push(`${attempt.name}: ${response.status} ${text}`);
      }
      const next = await call('GET', '/healthz', { dispatcher: connection, signal: AbortSignal.timeout(5000) }).catch(
        (error: unknown) => error,
      );
      if (!(next instanceof Response) || next.status !== 200)
        stuck.push(`${attempt.name}: ${String(next instanceof Response ? next.status : next)}`);
      await connection.close();
    }
    figures.oversizeAccepted = accepted.length;
    figures.stuckConnections = stuck.length;
    expect(accepted).toEqual([]);
    expect(stuck).toEqual([]);
  });
});

describe('pages', () => {
  test('every list refuses a $top past its largest page, and a $skip past the deepest one', async () => {
    const document = (await (await call('GET', '/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string; schema?: { format?: string; type?: string } }[] }>
      >;
    };
    const served: string[] = [];
    let lists = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      const parameters = operations.get?.parameters ?? [];
      const sizes = parameters.filter(
        (parameter) => parameter.in === 'query' && ['$top', 'rowCount', 'pageSize', '$skip'].includes(parameter.name),
      );
      if (sizes.length === 0) continue;
      lists += 1;
      const concrete = path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
        const schema = parameters.find((parameter) => parameter.in === 'path' && parameter.name === name)?.schema;
        return schema?.format === 'uuid'
          ? DEMO.contoso
          : schema?.type === 'integer' || schema?.type === 'number'
            ? '1'
            : 'x';
      });
      for (const size of sizes) {
        const huge = size.name === '$skip' ? MAX_SKIP + 1 : 1_000_000;
        const response = await call('GET', `${concrete}?${encodeURIComponent(size.name)}=${huge}`, { user: 'admin' });
        if (response.status < 400) served.push(`${size.name} on ${path}: ${response.status}`);
        await response.body?.cancel();
      }
    }
    // The largest page is served, and no larger, over Contoso's 100,000 work units.
    const largest = await call('GET', `/v1/workunits?$top=${MAX_PAGE_SIZE}`, { user: 'operator' });
    expect(((await largest.json()) as { value: unknown[] }).value).toHaveLength(MAX_PAGE_SIZE);
    // An export's page is held to the same largest page; Export All (no $top) streams every row
    // from a cursor instead, so it neither stops at a page nor holds the rows in memory (the peak
    // memory of the process is checked over the whole suite below).
    const hugeExport = await call('GET', `/v1/workunits/Export?$top=${MAX_PAGE_SIZE + 1}`, { user: 'operator' });
    if (hugeExport.status < 400) served.push(`$top on the work units export: ${hugeExport.status}`);
    await hugeExport.body?.cancel();
    // The operator's one tenant is Contoso; the list's own count stops at its bound, so the rows are counted here.
    const counter = connect(portal.database.url, 1);
    const counted = await counter
      .selectFrom('work_unit')
      .where('tenant_id', '=', DEMO.contoso)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    await counter.destroy();
    const total = Number(counted.n);
    const exported = await call('GET', '/v1/workunits/Export', { user: 'operator' });
    const lines = (await exported.text()).trim().split('\n');
    // The load's titles and descriptions hold no line break or quote: one line a row.
    const rows = lines.length - 1;
    figures.exportedRows = rows;
    figures.hugePagesServed = served.length;
    expect(lists).toBeGreaterThan(20);
    expect(served).toEqual([]);
    expect(total).toBeGreaterThan(WORK_UNITS);
    expect(rows).toBe(total);
  });
});

// Two-character terms that no row holds: no trigram index serves them, so every row is read.
const term = (i: number) => `${'zqyxwvutsr'[Math.floor(i / 10) % 10]}${i % 10}`;
const terms = (count: number) =>
  Array.from({ length: count }, (_, i) => `contains(description,'${term(i)}') or contains(title,'${term(i)}')`).join(
    ' or ',
  );

describe('expensive filters', () => {
  test('are refused before they run, or cut off by the statement timeout with a 503 that says so', async () => {
    const uncut: string[] = [];
    const refused = [
      { name: `more than ${MAX_FILTER_CONDITIONS} conditions`, filter: terms(MAX_FILTER_CONDITIONS) },
      { name: 'longer than 10,000 characters', filter: `title eq '${'a'.repeat(10_001)}'` },
      { name: 'nested 60 deep', filter: `${'('.repeat(60)}title eq 'a'${')'.repeat(60)}` },
    ];
    for (const { name, filter } of refused) {
      const started = Date.now();
      const response = await call('GET', `/v1/workunits?$filter=${encodeURIComponent(filter)}`, { user: 'operator' });
      await response.body?.cancel();
      if (response.status !== 400 || Date.now() - started > 1000)
        uncut.push(`${name}: ${response.status} after ${Date.now() - started} ms`);
    }
    // Four callers at once, each asking again as soon as it is answered, while the database's
    // running statements are sampled: none may run much past the timeout.
    const watcher = connect(portal.database.url, 1);
    let longest = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const { rows } = await sql<{ ms: number }>`
          SELECT coalesce(max(extract(epoch FROM clock_timestamp() - query_start) * 1000), 0)::float8 AS ms
          FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`.execute(
          watcher,
        );
        longest = Math.max(longest, rows[0]?.ms ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const costly = `/v1/workunits?$count=true&$filter=${encodeURIComponent(terms(30))}`;
    const run = await load({
      path: costly,
      headers: { authorization: `Bearer ${await portal.token('operator')}` },
      connections: 4,
      seconds: 8,
      maxSeconds: 30,
      expect503: true,
    }).finally(() => (watching = false));
    await watch;
    await watcher.destroy();
    const cut = run.statuses['503'] ?? 0;
    if (cut !== run.requests)
      uncut.push(`${run.requests - cut} of ${run.requests} costly searches answered ${JSON.stringify(run.statuses)}`);
    // The timeout fires at STATEMENT_TIMEOUT_MS; the margin is the cancel's own time on a loaded machine.
    if (longest > STATEMENT_TIMEOUT_MS + 1500) uncut.push(`a statement ran ${Math.round(longest)} ms`);
    const single = await call('GET', costly, { user: 'operator' });
    const answer = await single.text();
    if (single.status !== 503 || !answer.includes('took too long'))
      uncut.push(`a costly search alone: ${single.status} ${answer.slice(0, 100)}`);
    figures.filtersUncut = uncut.length;
    expect(uncut).toEqual([]);
  }, 120_000);
});

/** Whether a response is the 429 of a rate limit, with a Retry-After in seconds. */
async function limited(response: Response): Promise<boolean> {
  await response.body?.cancel();
  return response.status === 429 && Number(response.headers.get('retry-after')) > 0;
}

describe('rate limits', () => {
  test('sign-in: 30 attempts a minute per address, and an account refused after 10 failures from any addresses', async () => {
    const address = newAddress();
    let refused = false;
    for (let i = 0; i <= 30 && !refused; i++)
      refused = await limited(
        await call('POST', '/oidc/interaction/none/login', {
          from: address,
          raw: 'username=a&password=b',
          type: 'application/x-www-form-urlencoded',
        }),
      );
    if (!refused) figures.limitsMissing.push('sign-in per address');

    // A real sign-in interaction of the embedded provider, as the browser starts it.
    const challenge = randomBytes(32).toString('base64url');
    const start = await call(
      'GET',
      `/oidc/auth?client_id=cfs-portal&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${portal.url}/user/callback`)}&code_challenge=${challenge}&code_challenge_method=S256&state=s&nonce=n`,
    );
    const location = start.headers.get('location') ?? '';
    const cookie = start.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
    expect(location).toMatch(/\/oidc\/interaction\//);
    let locked = false;
    for (let i = 0; i <= ACCOUNT_FAILURE_LIMIT && !locked; i++) {
      const response = await call('POST', `${new URL(location, portal.url).pathname}/login`, {
        from: newAddress(),
        raw: 'username=enduser&password=guess',
        type: 'application/x-www-form-urlencoded',
        headers: { cookie },
      });
      if (!locked && response.status !== 429) expect(response.status).toBe(401);
      locked = await limited(response);
    }
    if (!locked) figures.limitsMissing.push('sign-in per account');
  }, 60_000);

  test(`the access request: ${ACCESS_REQUEST_RATE_LIMIT} an hour per address and per email address`, async () => {
    const form = (email: string) => ({
      form: {
        requestType: 'PasswordReset',
        firstName: 'Lee',
        lastName: 'Load',
        email,
        phone: '555-0100',
        targetAccountName: email,
        acknowledgePolicy: true,
        acknowledgeAccuracy: true,
      },
      startedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const address = newAddress();
    let refused = false;
    for (let i = 0; i <= ACCESS_REQUEST_RATE_LIMIT && !refused; i++) {
      const response = await call('POST', '/api/v1/accessrequest', {
        from: address,
        body: form(`person${i}@example.com`),
      });
      if (response.status !== 429) expect(response.status, await response.clone().text()).toBe(200);
      refused = await limited(response);
    }
    if (!refused) figures.limitsMissing.push('access request per address');
    let refusedEmail = false;
    for (let i = 0; i <= ACCESS_REQUEST_RATE_LIMIT && !refusedEmail; i++)
      refusedEmail = await limited(
        await call('POST', '/api/v1/accessrequest', { from: newAddress(), body: form('same.person@example.com') }),
      );
    if (!refusedEmail) figures.limitsMissing.push('access request per email address');
  });

  test(`the agent API and packets: ${MACHINE_LIMIT / 10} calls a minute per device credential, ${MACHINE_LIMIT} per tenant token, ${MACHINE_LIMIT * 2} per address`, async () => {
    const spread = () => ({ 'x-forwarded-for': newAddress() });
    // A device asking for its configuration over and over, from addresses that change each call.
    const device = await load({
      path: '/v1/agent/configuration',
      headers: { authorization: `Bearer ${deviceCredential}` },
      vary: spread,
      connections: 10,
      amount: MACHINE_LIMIT / 10 + 50,
      maxSeconds: 30,
    });
    const deviceLimited = (device.statuses['200'] ?? 0) <= MACHINE_LIMIT / 10 && (device.statuses['429'] ?? 0) > 0;
    // The credential is refused from a new address too; another credential from that address is not.
    const fresh = newAddress();
    if (
      !deviceLimited ||
      !(await limited(await call('GET', '/v1/agent/configuration', { bearer: deviceCredential, from: fresh })))
    )
      figures.limitsMissing.push('agent API per device credential');
    expect((await call('POST', '/v1/packets', { bearer: tenantToken, from: fresh, body: [] })).status).not.toBe(429);

    // A script posting (empty, refused) batches with a tenant token.
    const script = await load({
      path: '/v1/packets',
      method: 'POST',
      body: '{}',
      headers: { authorization: `Bearer ${tenantToken}` },
      vary: spread,
      connections: 10,
      amount: MACHINE_LIMIT + 50,
      maxSeconds: 60,
    });
    const scriptLimited =
      (script.statuses['429'] ?? 0) > 0 && script.requests - (script.statuses['429'] ?? 0) <= MACHINE_LIMIT;
    if (
      !scriptLimited ||
      !(await limited(await call('POST', '/v1/packets', { bearer: tenantToken, from: newAddress(), body: {} })))
    )
      figures.limitsMissing.push('packets per tenant token');

    // One address guessing device credentials: each guess is new, the address is the same.
    const guesser = newAddress();
    const guesses = await load({
      path: '/v1/agent/configuration',
      headers: { 'x-forwarded-for': guesser },
      vary: () => ({ authorization: `Bearer cfsd_${randomBytes(32).toString('base64url')}` }),
      connections: 10,
      amount: MACHINE_LIMIT * 2 + 50,
      maxSeconds: 90,
    });
    const guessesLimited = (guesses.statuses['429'] ?? 0) > 0 && (guesses.statuses['401'] ?? 0) <= MACHINE_LIMIT * 2;
    if (!guessesLimited) figures.limitsMissing.push(`machine calls per address (${JSON.stringify(guesses.statuses)})`);
    expect(figures.limitsMissing).toEqual([]);
  }, 240_000);
});

describe('under load', () => {
  const ROUNDS = 5;
  test("one tenant's heavy searches do not raise another tenant's p99 more than twice", async () => {
    // Fabrikam's operator paging the work units grid, alone and then beside Contoso's operator
    // sorting and searching 100,000 work units on six connections, in turns, so that a change in
    // the machine's other load falls on both; the figure is the median round's (of five: a p99 of
    // eight seconds' calls rests on a few of them).
    const normal = {
      path: '/v1/workunits?$top=25&$count=true',
      headers: { authorization: `Bearer ${await portal.token('operator2')}` },
      connections: 2,
      seconds: 8,
    };
    const heavyPath = `/v1/workunits?$count=true&$top=100&$orderby=description desc&$filter=${encodeURIComponent("contains(description,'ab') or contains(title,'zz')")}`;
    const heavyLoad = {
      path: heavyPath,
      headers: { authorization: `Bearer ${await portal.token('operator')}` },
      connections: 6,
      seconds: 8,
      maxSeconds: 40,
      expect503: true,
    };
    await load({ ...normal, seconds: 2 });
    const rounds: { alone: number; beside: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const alone = await load(normal);
      const [beside, heavy] = await Promise.all([load(normal), load(heavyLoad)]);
      expect(alone.statuses['200']).toBe(alone.requests);
      expect(beside.statuses['200']).toBe(beside.requests);
      // Contoso's searches were served too, in turn, or cut off by the statement timeout.
      expect((heavy.statuses['200'] ?? 0) + (heavy.statuses['503'] ?? 0)).toBe(heavy.requests);
      rounds.push({ alone: alone.p99, beside: beside.p99 });
    }
    const median = rounds
      .map((round) => ({ ...round, ratio: round.beside / Math.max(1, round.alone) }))
      .sort((a, b) => a.ratio - b.ratio)[Math.floor(ROUNDS / 2)];
    figures.aloneP99 = median?.alone ?? 0;
    figures.p99 = median?.beside ?? 0;
    figures.ratio = Math.round((median?.ratio ?? 0) * 100) / 100;
    expect(figures.ratio).toBeLessThanOrEqual(2);
  }, 240_000);
});

describe('the figures', () => {
  test('print one line, with no 5xx but the statement timeout’s and the peak memory of the process', () => {
    const memory = portal.memory();
    reportFigures('resource limits', {
      'oversize bodies accepted': figures.oversizeAccepted,
      'connections left stuck': figures.stuckConnections,
      'huge pages served': figures.hugePagesServed,
      'rows in the streamed Export All': figures.exportedRows,
      'expensive filters uncut': figures.filtersUncut,
      'rate limits missing': figures.limitsMissing.length,
      '5xx': unexpected5xx,
      'p99 ms': figures.aloneP99,
      "p99 beside another tenant's heavy searches ms": figures.p99,
      "other tenant's p99 ratio": figures.ratio,
      'peak memory MB': memory.peakMb,
    });
    expect(unexpected5xx).toBe(0);
    expect(memory.peakMb).toBeLessThan(1024);
  });
});
