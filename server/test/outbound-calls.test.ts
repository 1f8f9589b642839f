import { randomUUID } from 'node:crypto';
import dc from 'node:diagnostics_channel';
import http from 'node:http';
import os from 'node:os';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OPERATION_TYPES } from '@cfs/contracts/fleet';
import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { HostMetrics } from '../../agent/src/host-metrics.js';
import { outboundPolicy, type OutboundPolicy } from '../../agent/src/http-check.js';
import { runOperation, type OperationResult } from '../../agent/src/operations.js';
import { readPolicy } from '../../agent/src/read-allow.js';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import { configureOutbound } from '../src/engines/actions/outbound.js';
import { actionRunTask, configureActionRunner, runAction } from '../src/engines/actions/runner.js';
import { startJobWorker } from '../src/engines/jobs/worker.js';
import { createHttpAction } from './factories.js';
import { reportFigures } from './figures.js';
import { createTestPortal, type TestPortal } from './harness.js';
import { NAME_AND_TRICK_URLS, REFUSED_URLS, testLookup, withPort } from './outbound-spellings.js';

/**
 * Outbound calls (issue 15): every spelling of an internal address goes through the portal's action
 * runner (runAction, and the API's Test of an action whose host is a placeholder, run by a job
 * worker) and through the agent's checks (HTTP and TCP), with OUTBOUND_ALLOW empty, while canary
 * listeners on 127.0.0.1–6, 127.0.0.9 and [::1] count every connection that reaches them.
 *
 * Nothing may leave this machine even if the guard fails: every TCP connection this process opens
 * through net.connect is looked at before it is made (the `net.client.socket` channel), and one
 * aimed anywhere but a canary or the one allowed endpoint is stopped and counted as a hit. The
 * guard refuses non-loopback spellings (169.254.169.254, 10.0.0.1…) before any connection; were it
 * to let one through, this trap, not the network, would see it. https spellings reach only
 * loopback canaries (TLS connections do not pass through that channel).
 *
 * Redirects need a first hop that is allowed. With OUTBOUND_ALLOW empty nothing is, so that part
 * allows exactly one listener (127.0.0.9 on its own port, OUTBOUND_ALLOW "127.0.0.9:port") that
 * redirects to each spelling — among them 127.0.0.9 on the canaries' port, which the narrow entry
 * does not cover. The same listener receives the header and CRLF injection attempts and counts any
 * injected header or smuggled request as a hit.
 */

const CANARY_HOSTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.9', '::1'];
const ALLOWED_HOST = '127.0.0.9';

let portal: TestPortal;
let canaryPort = 0;
let allowedPort = 0;
const servers: http.Server[] = [];
const canaryHits: string[] = [];
const trapped: string[] = [];
const injected: string[] = [];
const spellings = new Set<string>();
let runnerCalls = 0;
let agentCalls = 0;

const isLoopback = (host: string) => /^127\./.test(host) || host === '::1' || /^::ffff:127\./i.test(host);

/** Stops every net.connect aimed anywhere but a canary or the allowed endpoint, before it connects. */
function trap(message: unknown): void {
  const { socket } = message as { socket: net.Socket };
  const connect = socket.connect.bind(socket);
  Object.defineProperty(socket, 'connect', {
    configurable: true,
    writable: true,
    value(...args: unknown[]) {
      const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
      const { host = 'localhost', port } = (typeof first === 'object' && first !== null ? first : {}) as {
        host?: string;
        port?: number | string;
      };
      const target = Number(port);
      if ((isLoopback(host) && target === canaryPort) || (host === ALLOWED_HOST && target === allowedPort))
        return (connect as (...list: unknown[]) => net.Socket)(...args);
      trapped.push(`${host}:${String(port)}`);
      process.nextTick(() => socket.destroy(new Error(`stopped: a connection to ${host}:${String(port)}`)));
      return socket;
    },
  });
}

function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** The canaries: one port on every loopback address, each counting the connections it accepts. */
async function startCanaries(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const started: http.Server[] = [];
    try {
      let port = 0;
      for (const host of CANARY_HOSTS) {
        const server = http.createServer((_request, response) => response.end('canary'));
        server.on('connection', () => canaryHits.push(`${host}:${port}`));
        started.push(server);
        port = await listen(server, host, port);
      }
      canaryPort = port;
      servers.push(...started);
      return;
    } catch (error) {
      await Promise.all(started.map((server) => new Promise((resolve) => server.close(resolve))));
      if (attempt >= 5) throw error;
    }
  }
}

/** The one endpoint the redirect part allows: redirects where it is told, and looks for injected headers and smuggled requests. */
async function startAllowedEndpoint(): Promise<void> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://allowed');
    if (
      Object.keys(request.headers).some((name) => name.startsWith('x-injected')) ||
      url.pathname.startsWith('/smuggled')
    )
      injected.push(`${request.method ?? ''} ${request.url ?? ''}`);
    if (url.pathname === '/redirect')
      return void response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    if (url.pathname === '/evil')
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ value: 'a\r\nX-Injected: extracted' }));
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ok: true, note: request.headers['x-note'] ?? null }));
  });
  servers.push(server);
  allowedPort = await listen(server, ALLOWED_HOST, 0);
}

const historyOf = (key: string) =>
  scoped(portal.db, ALL_TENANTS)
    .selectFrom('action_history')
    .select(['result_status_id', 'result_detail'])
    .where('job_key', '=', key)
    .executeTakeFirstOrThrow();

/** One run of an HTTP action through the runner; its history row. */
async function runThroughRunner(
  values: Parameters<typeof createHttpAction>[1],
  parameters: Record<string, string> = {},
) {
  const id = await createHttpAction(portal, { method: 'GET', ...values });
  const key = `outbound:${randomUUID()}`;
  runnerCalls += 1;
  await runAction(
    portal.db,
    {
      actionDefinitionId: id,
      tenantId: DEMO.contoso,
      parameters,
      origin: { kind: 'test', messageId: randomUUID(), triggeredBy: 'admin' },
    },
    key,
  );
  return historyOf(key);
}

const metrics = new HostMetrics();
/** The agent's policy for a portal elsewhere: nothing on this machine is its portal. */
const agentPolicy = (allow = ''): OutboundPolicy => ({
  ...outboundPolicy('https://portal.example', allow),
  lookup: testLookup,
});

function runThroughAgent(
  type: number,
  parameters: Record<string, string>,
  policy: OutboundPolicy,
): Promise<OperationResult> {
  agentCalls += 1;
  return runOperation(type, new Map(Object.entries(parameters)), {
    metrics,
    outbound: policy,
    files: readPolicy(os.tmpdir(), ''),
  });
}

const SPELLINGS = [...REFUSED_URLS, ...NAME_AND_TRICK_URLS];
const authorityOf = (url: string) => /^https?:\/\/([^/?#]*)/s.exec(url)?.[1] ?? '';

beforeAll(async () => {
  await startCanaries();
  await startAllowedEndpoint();
  dc.subscribe('net.client.socket', trap);
  // The counters count: a connection to a canary is seen, one elsewhere is stopped before it is made.
  await new Promise<void>((resolve, reject) =>
    http.get(`http://127.0.0.5:${canaryPort}/`, (response) => response.resume().on('end', resolve)).on('error', reject),
  );
  await new Promise<void>((resolve) =>
    net.connect({ host: '10.255.255.1', port: canaryPort }).on('error', () => resolve()),
  );
  expect(canaryHits).toEqual([`127.0.0.5:${canaryPort}`]);
  expect(trapped).toEqual([`10.255.255.1:${canaryPort}`]);
  canaryHits.length = 0;
  trapped.length = 0;
  portal = await createTestPortal();
  configureOutbound({ lookup: testLookup });
});

afterAll(async () => {
  configureOutbound({ lookup: undefined });
  configureActionRunner({ outboundAllow: '' });
  dc.unsubscribe('net.client.socket', trap);
  await portal?.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  const hits = canaryHits.length + trapped.length + injected.length;
  reportFigures('outbound calls', {
    spellings: spellings.size,
    'through the action runner': runnerCalls,
    'through the agent': agentCalls,
    'canary hits': hits,
  });
  expect({ canaryHits, trapped, injected }).toEqual({ canaryHits: [], trapped: [], injected: [] });
  expect(spellings.size).toBeGreaterThanOrEqual(40);
});

describe('with OUTBOUND_ALLOW empty', () => {
  test('the action runner calls none of the spellings: each run is a Failure that says it was not called', async () => {
    for (const spelling of SPELLINGS.map((url) => withPort(url, canaryPort))) {
      spellings.add(spelling);
      const history = await runThroughRunner({ url: spelling });
      expect(history.result_status_id, spelling).toBe(ACTION_RESULT_STATUSES.Failure);
      expect(history.result_detail, spelling).toMatch(
        /was not called: (The address is not allowed|A URL may not carry a user name)/,
      );
    }
    expect(canaryHits).toEqual([]);
    expect(trapped).toEqual([]);
  });

  test("the API's Test of an action whose host is a placeholder calls none of them either", async () => {
    const created = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/actionDefinitions',
      payload: {
        name: `Hook ${randomUUID().slice(0, 8)}`,
        description: 'Host from a parameter',
        actionDefinitionTypeId: 4,
        tenantId: DEMO.contoso,
        inputParameters: 'Host',
        endpointUrl: 'http://{Host}/hook',
        httpMethod: 'GET',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { actionDefinitionId } = created.json<{ actionDefinitionId: string }>();
    const messages = new Map<string, string>();
    for (const spelling of SPELLINGS.filter((url) => url.startsWith('http:')).map((url) => withPort(url, canaryPort))) {
      const answer = await portal.as('admin', {
        method: 'POST',
        url: `/v1/actionDefinitions/${actionDefinitionId}/test`,
        payload: { parameters: { Host: authorityOf(spelling) } },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      messages.set(answer.json<{ id: string }>().id, spelling);
      runnerCalls += 1;
    }
    const worker = startJobWorker({ db: portal.db, tasks: [actionRunTask], pollMs: 50, log: () => undefined });
    try {
      const until = Date.now() + 20_000;
      let rows: { message_id: string | null; result_status_id: number; result_detail: string | null }[] = [];
      while (rows.length < messages.size && Date.now() < until) {
        rows = await scoped(portal.db, ALL_TENANTS)
          .selectFrom('action_history')
          .select(['message_id', 'result_status_id', 'result_detail'])
          .where('message_id', 'in', [...messages.keys()])
          .execute();
        if (rows.length < messages.size) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(rows).toHaveLength(messages.size);
      for (const row of rows) {
        const spelling = messages.get(row.message_id ?? '');
        expect(row.result_status_id, spelling).toBe(ACTION_RESULT_STATUSES.Failure);
        expect(row.result_detail, spelling).toMatch(
          /was not called: (The address is not allowed|A URL may not carry a user name)|gives its host a value that is not a host/,
        );
      }
    } finally {
      await worker.stop();
    }
    expect(canaryHits).toEqual([]);
    expect(trapped).toEqual([]);
  });

  test("the agent's HTTP and TCP checks call none of them: each fails as not allowed", async () => {
    const policy = agentPolicy();
    for (const spelling of SPELLINGS.map((url) => withPort(url, canaryPort))) {
      const checked = await runThroughAgent(OPERATION_TYPES.Availability, { Url: spelling }, policy);
      expect(checked.ok, spelling).toBe(false);
      expect(checked.detail, spelling).toMatch(/not allowed|may not carry a user name/);
      const read = await runThroughAgent(OPERATION_TYPES.ApiRead, { Url: spelling, JsonPath: '$.ok' }, policy);
      expect(read.detail, spelling).toMatch(/not allowed|may not carry a user name/);
    }
    for (const spelling of REFUSED_URLS.filter((url) => url.startsWith('http:')).map((url) =>
      withPort(url, canaryPort).replace(/^http:/, 'tcp:'),
    )) {
      const checked = await runThroughAgent(OPERATION_TYPES.Availability, { Url: spelling }, policy);
      expect(checked.ok, spelling).toBe(false);
      expect(checked.detail, spelling).toMatch(/not allowed|ENOTFOUND/);
    }
    expect(canaryHits).toEqual([]);
    expect(trapped).toEqual([]);
  });
});

describe('redirects from the one allowed endpoint', () => {
  beforeAll(() => configureActionRunner({ outboundAllow: `${ALLOWED_HOST}:${allowedPort}` }));
  afterAll(() => configureActionRunner({ outboundAllow: '' }));
  const redirect = (to: string) => `http://${ALLOWED_HOST}:${allowedPort}/redirect?to=${encodeURIComponent(to)}`;

  test('are followed to the allowed endpoint itself, and refused at every spelling of an internal address', async () => {
    const followed = await runThroughRunner({ url: redirect('/landed') });
    expect(followed.result_status_id, followed.result_detail ?? '').toBe(ACTION_RESULT_STATUSES.Success);
    const policy = agentPolicy(`${ALLOWED_HOST}:${allowedPort}`);
    expect(await runThroughAgent(OPERATION_TYPES.Availability, { Url: redirect('/landed') }, policy)).toMatchObject({
      ok: true,
    });
    // A Location header cannot carry control characters: those spellings are tried directly above.
    const targets = [
      ...SPELLINGS.filter((url) => !/[\t\r\n]/.test(url)).map((url) => withPort(url, canaryPort)),
      `http://${ALLOWED_HOST}:${canaryPort}/`,
    ];
    for (const target of targets) {
      const history = await runThroughRunner({ url: redirect(target) });
      expect(history.result_status_id, target).toBe(ACTION_RESULT_STATUSES.Failure);
      expect(history.result_detail, target).toMatch(
        /was not called: (The address is not allowed|A URL may not carry a user name)/,
      );
      const checked = await runThroughAgent(OPERATION_TYPES.Availability, { Url: redirect(target) }, policy);
      expect(checked.ok, target).toBe(false);
      expect(checked.detail, target).toMatch(/not allowed|may not carry a user name/);
    }
    expect(canaryHits).toEqual([]);
    expect(trapped).toEqual([]);
  });
});

describe('header and CRLF injection at the allowed endpoint', () => {
  beforeAll(() => configureActionRunner({ outboundAllow: `${ALLOWED_HOST}:${allowedPort}` }));
  afterAll(() => configureActionRunner({ outboundAllow: '' }));
  const base = () => `http://${ALLOWED_HOST}:${allowedPort}`;
  const SMUGGLED = `\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: 127.0.0.2\r\n\r\n`;

  test('parameters in headers, the path and the host of an action cannot add a header or a request', async () => {
    for (const note of ['a\r\nX-Injected: header', 'a\nX-Injected: lf', `a${SMUGGLED}`, 'a\r\n\tX-Injected: folded']) {
      spellings.add(`header value ${JSON.stringify(note)}`);
      const history = await runThroughRunner({ url: `${base()}/record`, headers: 'X-Note: {Note}' }, { Note: note });
      expect(history.result_status_id, note).toBe(ACTION_RESULT_STATUSES.Success);
    }
    for (const path of [`x HTTP/1.1\r\nX-Injected: path\r\n\r\nGET /smuggled`, `x${SMUGGLED}`]) {
      spellings.add(`path ${JSON.stringify(path)}`);
      expect((await runThroughRunner({ url: `${base()}/record/{Path}` }, { Path: path })).result_status_id).toBe(
        ACTION_RESULT_STATUSES.Success,
      );
    }
    for (const host of [
      `${ALLOWED_HOST}:${allowedPort}\r\nX-Injected: host`,
      `${ALLOWED_HOST}:${allowedPort}/ HTTP/1.1\r\nX-Injected: host\r\n\r\nGET /smuggled`,
    ]) {
      spellings.add(`host ${JSON.stringify(host)}`);
      const history = await runThroughRunner({ url: 'http://{Host}/record' }, { Host: host });
      expect(history.result_detail, host).toMatch(/not a host/);
    }
    spellings.add('url with CRLF');
    expect((await runThroughRunner({ url: `${base()}/record\r\nX-Injected: url` })).result_status_id).toBe(
      ACTION_RESULT_STATUSES.Success,
    );
    expect(injected).toEqual([]);
  });

  test("the agent's headers, addresses and values carried from one step to the next cannot either", async () => {
    const policy = agentPolicy(`${ALLOWED_HOST}:${allowedPort}`);
    const headers = await runThroughAgent(
      OPERATION_TYPES.ApiRead,
      { Url: `${base()}/record`, JsonPath: '$.ok', Headers: JSON.stringify({ 'X-Note': 'a\r\nX-Injected: header' }) },
      policy,
    );
    expect(headers.ok).toBe(false);
    const smuggled = await runThroughAgent(
      OPERATION_TYPES.ApiRead,
      { Url: `${base()}/record`, JsonPath: '$.ok', Headers: JSON.stringify({ 'X-Note': `a${SMUGGLED}` }) },
      policy,
    );
    expect(smuggled.ok).toBe(false);
    const address = await runThroughAgent(
      OPERATION_TYPES.Availability,
      { Url: `${base()}/record\r\nX-Injected: url` },
      policy,
    );
    expect(address.ok).toBe(true);
    const carried = await runThroughAgent(
      OPERATION_TYPES.Synthetic,
      {
        Steps: JSON.stringify([
          { Url: `${base()}/evil`, Extract: { v: '$.value' } },
          { Url: `${base()}/record`, Headers: { 'X-Note': '${v}' } },
        ]),
      },
      policy,
    );
    expect(carried.ok).toBe(false);
    for (const name of [
      'agent header value',
      'agent smuggled request',
      'agent address with CRLF',
      'agent value carried between steps',
    ])
      spellings.add(name);
    expect(injected).toEqual([]);
  });
});
