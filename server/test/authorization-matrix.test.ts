import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { DEVICE_OPERATION_MESSAGES } from '@cfs/contracts/device-operations';
import { OPERATION_TYPES } from '@cfs/contracts/fleet';
import { HOST_ACCESS_PERMISSION, SCRIPTS_PERMISSION } from '@cfs/contracts/permissions';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeJwt } from 'jose';
import { buildApp, requestLogSerializers } from '../src/app.js';
import { mintAccessToken } from '../src/auth/embedded/mint.js';
import { redactUrl } from '../src/http/log-redaction.js';
import type { RoutePermission } from '../src/http/route-permission.js';
import { EXPECTED_ACCESS } from './expected-access.js';
import { BASE_ROLES } from '../src/db/seed.js';
import { startJobWorker, type JobWorker } from '../src/engines/jobs/worker.js';
import {
  createSubscriptionAs,
  createTenantAs,
  createTokenAs,
  createUserIn,
  createWorkUnitAs,
  unique,
} from './factories.js';
import { insertPackageWithOperation } from './fleet-factories.js';
import { reportFigures } from './figures.js';
import { bearer, createTestPortal, type TestPortal } from './harness.js';
import {
  BODIES,
  MULTIPART,
  INSTALLATION_ONLY,
  NOT_TENANT_BOUND,
  objectsOf,
  PROBE_SECRETS,
  probe,
  QUERIES,
  type Objects,
  type ProbedRoute,
} from './route-probes.js';

/*
 * The authorization matrix: every registered route, called as every kind of caller, with objects
 * of two tenants, held to the access this suite expects (expected-access.ts), written apart from
 * the routes' own declarations so that a declaration changed by mistake is caught, not obeyed:
 * - a caller the expected access refuses is refused: 401 without a valid credential, 403 without the
 *   permission (or the wrong kind of machine);
 * - a caller it allows is not refused, and with another tenant's objects gets no 2xx and hears
 *   nothing of that tenant;
 * - nothing answers 5xx.
 * The logs suite reads what the portal logged during the same run.
 */

type TenantKey = 'contoso' | 'fabrikam';

interface Caller {
  name: string;
  headers: Record<string, string>;
  /** What the credential is; `valid` is false for one the portal must not accept. */
  kind: 'none' | 'user' | 'device' | 'token';
  valid: boolean;
  permissions: ReadonlySet<string>;
  /** The tenant the caller belongs to: its objects are its own, every other tenant's are foreign. */
  home: TenantKey | 'northwind' | undefined;
  /** What a refusal of this caller's requests is logged with. */
  logged: { user?: string; tenant?: string; device?: string; apiToken?: string };
  /** The caller whose own objects must answer 2xx: the probes are well-formed. */
  owner?: true;
}

interface Probe {
  caller: Caller;
  route: ProbedRoute;
  access: RoutePermission | undefined;
  tenant: TenantKey;
}

interface Outcome {
  probe: Probe;
  status: number;
  body: string;
  url: string;
}

let portal: TestPortal;
let app: FastifyInstance;
const logLines: string[] = [];
const routes: RouteOptions[] = [];
const objects = {} as Record<TenantKey, Objects>;
/** The tenants' names: made unique by the test, so an answer holding one tells about that tenant. */
const tenantNames: Record<TenantKey | 'northwind', string> = {
  contoso: '',
  fabrikam: '',
  northwind: '',
};
const tenantIds = {} as Record<TenantKey | 'northwind', string>;
const callers: Caller[] = [];
const outcomes: Outcome[] = [];
const problems: string[] = [];
/** Every credential and secret the run used; none may appear in a log line. */
const secrets = new Set<string>();
let openApiPaths: string[] = [];
/** The routes that enable or disable a tenant: its own path and the spec's spelling. */
const TENANT_TOGGLES = new Set(['/v1/tenants/:id/toggledisabled', '/v1/tenants/toggledisabled/:id']);

/** Each method of each registered route; HEAD follows GET and is not called on its own. */
function probedRoutes(): ProbedRoute[] {
  const list: ProbedRoute[] = [];
  for (const route of routes) {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method !== 'HEAD') list.push({ method, url: route.url });
    }
  }
  return list;
}

function accessOf(route: ProbedRoute): RoutePermission | undefined {
  return EXPECTED_ACCESS[`${route.method} ${route.url}`];
}

/** What the expected access says a caller gets: 'allow', or the status of the refusal. */
function expectation(caller: Caller, access: RoutePermission): 'allow' | 401 | 403 {
  if (access === 'public') return 'allow';
  if (!caller.valid) return 401;
  if (typeof access === 'object' && 'machine' in access) {
    if (caller.kind !== 'device' && caller.kind !== 'token') return 401;
    return access.machine.includes(caller.kind) ? 'allow' : 403;
  }
  if (caller.kind !== 'user') return 401;
  if (access === 'signed-in') return 'allow';
  const accepted: readonly string[] = typeof access === 'string' ? [access] : access;
  return accepted.some((permission) => caller.permissions.has(permission)) ? 'allow' : 403;
}

const isTenantBound = (route: ProbedRoute) => {
  const key = `${route.method} ${route.url}`;
  return !NOT_TENANT_BOUND.has(key) && (/:\w+/.test(route.url) || route.method !== 'GET' || key in QUERIES);
};

async function userCaller(
  name: string,
  userName: string,
  permissions: readonly string[],
  home: Caller['home'],
  valid = true,
  token?: string,
): Promise<Caller> {
  const minted = token ?? (await portal.token(userName));
  secrets.add(minted);
  const tenant = home ? tenantIds[home] : undefined;
  return {
    name,
    headers: bearer(minted),
    kind: 'user',
    valid,
    permissions: new Set(permissions),
    home,
    logged: valid ? { user: userName, ...(tenant ? { tenant } : {}) } : {},
  };
}

function machineCaller(
  name: string,
  kind: 'device' | 'token',
  credential: string,
  valid: boolean,
  logged: Caller['logged'],
): Caller {
  secrets.add(credential);
  return {
    name,
    headers: bearer(credential),
    kind,
    valid,
    permissions: new Set(),
    home: 'contoso',
    logged: valid ? logged : {},
  };
}

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

function record(probe: Probe, response: LightMyRequestResponse, url: string): Outcome {
  const outcome = { probe, status: response.statusCode, body: response.body, url };
  outcomes.push(outcome);
  // Credentials the portal hands out during the run are secrets of the run too.
  for (const match of response.body.matchAll(/"(generatedToken|credential)":"([^"]+)"/g)) secrets.add(match[2]!);
  return outcome;
}

async function run(p: Probe): Promise<Outcome> {
  const response = await probe(app, p.route, objects[p.tenant], p.caller.headers);
  return record(p, response, response.raw.req.url ?? '');
}

const label = (p: Probe) => `${p.route.method} ${p.route.url} as ${p.caller.name} with ${p.tenant}'s objects`;

/** Judges one answer against the expected access. */
function judge(outcome: Outcome): void {
  const { probe: p, status, body } = outcome;
  if (status >= 500) problems.push(`${label(p)} answered ${status}: ${body.slice(0, 200)}`);
  if (!p.access) return;
  const allowed = expectation(p.caller, p.access);
  // Every user of the walk is limited to one tenant: what only staff of every tenant may do is refused.
  const expected =
    allowed === 'allow' && p.caller.kind === 'user' && INSTALLATION_ONLY.has(`${p.route.method} ${p.route.url}`)
      ? 403
      : allowed;
  if (expected !== 'allow') {
    if (status !== expected)
      problems.push(`${label(p)} answered ${status}, it is expected to be refused with ${expected}`);
    return;
  }
  const own = p.tenant === p.caller.home;
  const other: TenantKey = p.tenant === 'contoso' ? 'fabrikam' : 'contoso';
  if ((own || !isTenantBound(p.route)) && (status === 401 || status === 403)) {
    problems.push(`${label(p)} was refused (${status}), it is expected to be allowed: ${body.slice(0, 200)}`);
    return;
  }
  if (own && p.caller.owner && p.access !== 'public' && status >= 300)
    problems.push(`${label(p)} answered ${status} to its owner: ${body.slice(0, 200)}`);
  if (own && p.access !== 'public' && body.includes(tenantIds[other]))
    problems.push(`${label(p)} mentions the other tenant`);
  if (!own && p.access !== 'public' && isTenantBound(p.route)) {
    if (status < 300) problems.push(`${label(p)} (another tenant's objects) answered ${status}`);
    if (body.includes(tenantIds[p.tenant]) || body.includes(tenantNames[p.tenant]))
      problems.push(`${label(p)} told about another tenant's objects`);
  }
}

const isCrossTenant2xx = (o: Outcome) =>
  o.probe.access !== undefined &&
  o.probe.access !== 'public' &&
  o.probe.tenant !== o.probe.caller.home &&
  isTenantBound(o.probe.route) &&
  o.status < 300;
const isUnexpectedAllow = (o: Outcome) =>
  o.probe.access !== undefined &&
  (expectation(o.probe.caller, o.probe.access) !== 'allow' ||
    (o.probe.caller.kind === 'user' && INSTALLATION_ONLY.has(`${o.probe.route.method} ${o.probe.route.url}`))) &&
  o.status < 300;

let agentDist = '';
// A worker that says it is alive, so that /readyz answers ready (it answers 503 without one, by design).
let worker: JobWorker | undefined;

beforeAll(async () => {
  // The agent download is called by every caller: a small stand-in for the 100 MB executable
  // (`npm run build` makes it) keeps the run's memory bounded while the route is served for real.
  agentDist = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-matrix-agent-'));
  await fs.writeFile(path.join(agentDist, 'cfs-agent-linux-x64'), 'a stand-in for the agent executable');
  portal = await createTestPortal({ AGENT_DIST: agentDist });
  worker = startJobWorker({ db: portal.db, tasks: [], log: () => undefined });
  const { runtime, config } = portal;
  app = await buildApp({
    ...runtime,
    ...(runtime.provider ? { provider: runtime.provider } : {}),
    logger: {
      level: 'info',
      serializers: requestLogSerializers,
      stream: { write: (line: string) => void logLines.push(line) },
    },
    routeObserver: (route) => void routes.push(route),
  });
  await app.ready();
  openApiPaths = Object.keys((app.swagger() as { paths?: Record<string, unknown> }).paths ?? {});
  const administrator = BASE_ROLES.Administrator!.permissions;
  // The two tenants whose objects are probed, the test's own (named contoso and fabrikam here), each
  // with a subscription and a work unit.
  const subscriptionIds = {} as Record<TenantKey, string>;
  for (const key of ['contoso', 'fabrikam'] as const) {
    const tenant = await createTenantAs(portal, 'admin', {
      name: `Matrix ${key} ${unique()}`,
      internalNotificationEmailAddress: `noc@${key}.example`,
    });
    tenantIds[key] = tenant.tenantId;
    tenantNames[key] = tenant.name;
    subscriptionIds[key] = (await createSubscriptionAs(portal, 'admin', tenant.tenantId)).subscriptionId;
    await createWorkUnitAs(portal, 'admin', tenant.tenantId);
  }
  await createUserIn(portal, 'contoso-admin', administrator, tenantIds.contoso);
  objects.contoso = await objectsOf(portal, tenantIds.contoso, subscriptionIds.contoso, 'contoso-admin');
  objects.fabrikam = await objectsOf(portal, tenantIds.fabrikam, subscriptionIds.fabrikam, 'contoso-admin');

  // A tenant whose administrator disabled it, with an operator of its own.
  const northwind = await createTenantAs(portal, 'admin', { name: `Northwind ${randomUUID().slice(0, 6)}` });
  tenantIds.northwind = northwind.tenantId;
  tenantNames.northwind = northwind.name;
  await createUserIn(portal, 'northwind-operator', BASE_ROLES.Operator!.permissions, northwind.tenantId);
  const disabled = await portal.as('admin', {
    method: 'POST',
    url: `/v1/tenants/toggledisabled/${northwind.tenantId}`,
  });
  expect(disabled.json()).toMatchObject({ enabled: false });

  await createUserIn(portal, 'fabrikam-admin', administrator, tenantIds.fabrikam);
  await createUserIn(portal, 'disabled-admin', administrator, tenantIds.contoso, { enabled: false });
  await createUserIn(portal, 'no-permission', [], tenantIds.contoso);
  await createUserIn(portal, 'contoso-enduser', BASE_ROLES.EndUser!.permissions, tenantIds.contoso);
  const token = await createTokenAs(portal, 'admin', tenantIds.contoso);
  const revoked = await createTokenAs(portal, 'admin', tenantIds.contoso);
  expect(
    (await portal.as('admin', { method: 'PUT', url: `/v1/tokens/${revoked.tokenGrantId}/revoke` })).statusCode,
  ).toBe(200);
  const { keys, provider } = runtime;
  if (!keys || !provider) throw new Error('The matrix mints tokens: it needs the embedded identity provider');
  const signedOut = await mintAccessToken({ config, keys, provider }, 'admin');
  await provider.Grant.adapter.destroy(String(decodeJwt(signedOut).gid));

  callers.push(
    { name: 'anonymous', headers: {}, kind: 'none', valid: false, permissions: new Set(), home: undefined, logged: {} },
    {
      name: 'a malformed token',
      headers: bearer('malformed.token'),
      kind: 'none',
      valid: false,
      permissions: new Set(),
      home: undefined,
      logged: {},
    },
    await userCaller(
      'an expired token',
      'admin',
      [],
      undefined,
      false,
      await mintAccessToken({ config, keys, provider }, 'admin', -3600),
    ),
    await userCaller("a signed-out user's token", 'admin', [], undefined, false, signedOut),
    await userCaller('a disabled user', 'disabled-admin', [], undefined, false),
    machineCaller('a revoked API token', 'token', revoked.generatedToken, false, {}),
    { ...(await userCaller("Contoso's administrator", 'contoso-admin', administrator, 'contoso')), owner: true },
    await userCaller("Fabrikam's administrator", 'fabrikam-admin', administrator, 'fabrikam'),
    await userCaller('an end user', 'contoso-enduser', BASE_ROLES.EndUser!.permissions, 'contoso'),
    await userCaller(
      'an operator of a disabled tenant',
      'northwind-operator',
      BASE_ROLES.Operator!.permissions,
      'northwind',
    ),
    await userCaller('a user without permissions', 'no-permission', [], 'contoso'),
    {
      ...machineCaller('a device credential', 'device', objects.contoso.agentCredential, true, {
        device: objects.contoso.agentDeviceId,
        tenant: tenantIds.contoso,
      }),
      owner: true,
    },
    {
      ...machineCaller('a tenant API token', 'token', token.generatedToken, true, {
        apiToken: token.tokenGrantId,
        tenant: tenantIds.contoso,
      }),
      owner: true,
    },
  );
  // Every permission the expected access or a route names (a permission neither names is no permission at all).
  const named = new Set<string>(
    Object.values(EXPECTED_ACCESS).flatMap((access) =>
      typeof access === 'object' && !Array.isArray(access) ? [] : typeof access === 'string' ? [access] : access,
    ),
  );
  for (const route of routes) {
    const declared = (route.config as { permission?: RoutePermission } | undefined)?.permission;
    if (typeof declared === 'string') named.add(declared);
    else if (Array.isArray(declared)) for (const permission of declared) named.add(permission);
  }
  const single = [...named].filter((name) => name !== 'public' && name !== 'signed-in').sort();
  for (const permission of single) {
    const userName = `only-${permission.replace(/[^A-Za-z]/g, '-').toLowerCase()}`;
    await createUserIn(portal, userName, [permission], tenantIds.contoso);
    callers.push(await userCaller(`a user with only ${permission}`, userName, [permission], 'contoso'));
  }
  for (const secret of [
    PROBE_SECRETS.password,
    PROBE_SECRETS.refreshToken,
    PROBE_SECRETS.authorizationCode,
    PROBE_SECRETS.tenantSecret,
    objects.fabrikam.agentCredential,
  ])
    secrets.add(secret);

  const all = probedRoutes();
  const probes: Probe[] = [];
  for (const route of all) {
    const access = accessOf(route);
    for (const caller of callers) {
      const refused = access !== undefined && expectation(caller, access) !== 'allow';
      for (const tenant of ['contoso', 'fabrikam'] as const) {
        // Fabrikam's objects stay whole for the other callers: its administrator is probed with Contoso's only.
        if (caller.home === 'fabrikam' && tenant === 'fabrikam') continue;
        // A refusal comes before any object is looked at, and public routes answer everyone alike:
        // one tenant's objects will do.
        if ((refused || access === 'public') && tenant === 'fabrikam') continue;
        probes.push({ caller, route, access, tenant });
      }
    }
  }
  // Reads, whatever must be refused, and everything done with another tenant's objects, first and
  // side by side: none of it may change anything. Then the allowed writes with the callers' own
  // objects, one at a time, in route order (they create, edit and delete), the owners' first so
  // that their objects are still there.
  const mayChange = (p: Probe) =>
    p.route.method !== 'GET' &&
    p.access !== undefined &&
    p.access !== 'public' &&
    expectation(p.caller, p.access) === 'allow' &&
    p.tenant === p.caller.home;
  await inParallel(
    probes.filter((p) => !mayChange(p)),
    8,
    async (p) => void (await run(p)),
  );
  const allowedOwn = probes.filter(mayChange);
  for (const p of [...allowedOwn.filter((q) => q.caller.owner), ...allowedOwn.filter((q) => !q.caller.owner)]) {
    const outcome = await run(p);
    // A tenant disabled by a probe is enabled again: the rest of the run works in it.
    if (TENANT_TOGGLES.has(p.route.url) && outcome.status < 300)
      await probe(app, p.route, objects[p.tenant], p.caller.headers);
  }
  // Registered paths outside the route table that carry sign-in material in their address.
  const callback = await app.inject({
    method: 'GET',
    url: `/user/callback?code=${PROBE_SECRETS.authorizationCode}&state=probe`,
  });
  expect(callback.statusCode).toBeLessThan(500);
  for (const key of PROBE_SECRETS.agentKeys) secrets.add(key);
  for (const outcome of outcomes) judge(outcome);
}, 300_000);

afterAll(async () => {
  await worker?.stop();
  await app?.close();
  await portal?.close();
  if (agentDist) await fs.rm(agentDist, { recursive: true, force: true });
});

describe('the authorization matrix', () => {
  test('calls every registered route, and every API path of the OpenAPI document is one of them', () => {
    const registered = new Set(routes.map((route) => route.url.replace(/:(\w+)/g, '{$1}')));
    expect(registered.size).toBeGreaterThan(100);
    expect(openApiPaths.filter((path) => !registered.has(path))).toEqual([]);
    // A write route needs a body in its area’s route-probes.ts (`() => undefined` for one that takes none).
    const withoutBody = probedRoutes().filter(
      (route) =>
        route.method !== 'GET' &&
        accessOf(route) !== 'public' &&
        !(`${route.method} ${route.url}` in BODIES) &&
        !(`${route.method} ${route.url}` in MULTIPART),
    );
    expect(withoutBody).toEqual([]);
  });

  test('expects access only of registered routes (expected-access.ts names no route that is gone)', () => {
    const registered = new Set(
      routes.flatMap((route) =>
        (Array.isArray(route.method) ? route.method : [route.method]).map((method) => `${method} ${route.url}`),
      ),
    );
    // The web app's files are served only where the web app is built.
    const stale = Object.keys(EXPECTED_ACCESS).filter((key) => !registered.has(key) && key !== 'GET /*');
    expect(stale).toEqual([]);
  });

  test("holds every answer to the expected access: refusals as it says, no 2xx with another tenant's objects, no 5xx", async () => {
    // Every method of every route, HEAD included: a HEAD route without an entry of its own follows its GET's.
    const missing = routes
      .flatMap((route) =>
        (Array.isArray(route.method) ? route.method : [route.method]).map((method) => ({ method, url: route.url })),
      )
      .filter((route) => !accessOf(route) && !(route.method === 'HEAD' && accessOf({ method: 'GET', url: route.url })));
    const figures = {
      routes: probedRoutes().length,
      principals: callers.length,
      requests: outcomes.length,
      'unexpected allows': outcomes.filter(isUnexpectedAllow).length,
      'cross-tenant 2xx': outcomes.filter(isCrossTenant2xx).length,
      'routes missing from the table': missing.length,
      '5xx': outcomes.filter((o) => o.status >= 500).length,
    };
    reportFigures('authorization matrix', figures);
    expect(missing.map((route) => `${route.method} ${route.url}`)).toEqual([]);
    expect(problems.slice(0, 60)).toEqual([]);
    // The names the leak check looks for are in answers to their own tenant's callers: the check can fail.
    const named = (key: TenantKey) =>
      outcomes.filter((o) => o.probe.caller.home === key && o.probe.tenant === key && o.body.includes(tenantNames[key]))
        .length;
    expect(named('contoso')).toBeGreaterThan(0);
    const fabrikamOwn = await portal.as('fabrikam-admin', { method: 'GET', url: `/v1/tenants(${tenantIds.fabrikam})` });
    expect(fabrikamOwn.json()).toMatchObject({ tenantId: tenantIds.fabrikam, name: tenantNames.fabrikam });
    expect(figures['unexpected allows']).toBe(0);
    expect(figures['cross-tenant 2xx']).toBe(0);
    expect(figures['5xx']).toBe(0);
  });
});

interface LogLine {
  time?: number;
  method?: string;
  url?: string;
  route?: string;
  statusCode?: number;
  user?: string;
  tenant?: string;
  device?: string;
  apiToken?: string;
}

describe('the logs of the matrix run', () => {
  test('log every refusal with its route, time and caller, and no secret anywhere; no answer shows a stack trace or SQL', () => {
    const lines = logLines.map((line) => JSON.parse(line) as LogLine);
    const requestLines = new Map<string, LogLine[]>();
    for (const line of lines) {
      if (line.statusCode === undefined) continue;
      const key = `${line.method} ${line.url} ${line.statusCode}`;
      requestLines.set(key, [...(requestLines.get(key) ?? []), line]);
    }
    const denials = outcomes.filter((o) => o.status === 401 || o.status === 403);
    const unlogged: string[] = [];
    let logged = 0;
    for (const denial of denials) {
      const key = `${denial.probe.route.method} ${redactUrl(denial.url)} ${denial.status}`;
      const candidates = requestLines.get(key) ?? [];
      // A 401 established no caller; a 403 names the one it refused.
      const expected = denial.status === 403 ? denial.probe.caller.logged : {};
      const index = candidates.findIndex((line) =>
        Object.entries(expected).every(([field, value]) => line[field as keyof LogLine] === value),
      );
      if (index < 0) {
        unlogged.push(`${label(denial.probe)} (${denial.status})`);
        continue;
      }
      const [line] = candidates.splice(index, 1);
      if (line?.route === denial.probe.route.url && typeof line.time === 'number') logged += 1;
      else unlogged.push(`${label(denial.probe)}: logged without its route or time`);
    }
    // One line each: no refusal is logged twice.
    const extraRefusalLines = [...requestLines.values()]
      .flat()
      .filter((line) => line.statusCode === 401 || line.statusCode === 403);
    const leaks = logLines.filter((line) => [...secrets].some((secret) => line.includes(secret)));
    const stackOrSql =
      /\n\s+at |\.ts:\d|\.js:\d|\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b|relation "|syntax error|invalid input syntax|violates .* constraint|duplicate key value/;
    const exposing = outcomes.filter((o) => o.probe.route.url.startsWith('/docs') === false && stackOrSql.test(o.body));
    reportFigures('logs', {
      denials: denials.length,
      'denials logged with tenant, user, route and time': logged,
      'secrets in log lines': leaks.length,
      'stack traces or SQL in answers': exposing.length,
    });
    expect(unlogged.slice(0, 20)).toEqual([]);
    expect(logged).toBe(denials.length);
    expect(extraRefusalLines).toEqual([]);
    expect(secrets.size).toBeGreaterThan(10);
    expect(leaks.slice(0, 5)).toEqual([]);
    expect(exposing.map((o) => `${label(o.probe)}: ${o.body.slice(0, 200)}`)).toEqual([]);
  });
});

/*
 * Operations that read files or run scripts on a device need a permission of their own on top of
 * the route's — Read File Devices.HostAccess, Script Devices.Scripts — judged on what the request
 * sets up or runs (auth/host-access.ts). Called on the test portal's own app, whose log is not the
 * one the logs suite reads.
 */
describe.each([
  {
    kind: 'Read File',
    type: OPERATION_TYPES.LocalFileRead,
    permission: HOST_ACCESS_PERMISSION,
    message: DEVICE_OPERATION_MESSAGES.hostAccessRequired,
  },
  {
    kind: 'Script',
    type: OPERATION_TYPES.Script,
    permission: SCRIPTS_PERMISSION,
    message: DEVICE_OPERATION_MESSAGES.scriptsRequired,
  },
])('the authorization matrix for $kind operations', ({ kind, type, permission, message }) => {
  test('every user allowed the route but without its permission is refused (403); administrators are not', async () => {
    const hostAccess = `${permission.area}:${permission.verb}`;
    const suffix = kind.replace(' ', '').toLowerCase();
    expect(BASE_ROLES.Administrator!.permissions).toContain(hostAccess);
    expect(BASE_ROLES.Operator!.permissions).not.toContain(hostAccess);
    await createUserIn(portal, `contoso-operator-${suffix}`, BASE_ROLES.Operator!.permissions, tenantIds.contoso);
    await createUserIn(portal, `only-${suffix}`, [hostAccess], tenantIds.contoso);
    const users = [
      ...callers.filter((caller) => caller.kind === 'user' && caller.valid && caller.home === 'contoso'),
      await userCaller('an operator', `contoso-operator-${suffix}`, BASE_ROLES.Operator!.permissions, 'contoso'),
      await userCaller(`a user with only ${hostAccess}`, `only-${suffix}`, [hostAccess], 'contoso'),
    ];
    const o = objects.contoso;
    const readFile = await insertPackageWithOperation(portal, null, {
      operationName: `${kind} (matrix)`,
      frequencies: [1, 2],
      operationTypeId: type,
    });
    const deviceOperation = (label: string) => ({
      deviceId: o.deviceId,
      operationId: readFile.operationId,
      label,
      frequencyTypeId: 1,
      interval: '00:05:00',
      parameters: [{ Name: 'Path', Source: 'PortalEntry', Value: '/etc/shadow' }],
    });
    const made = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/deviceOperations',
      payload: deviceOperation('Keys'),
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json<{ deviceOperationId: string }>().deviceOperationId;
    const packageOperation = {
      name: `${kind} (matrix)`,
      frequencyDefinitions: [2],
      defaultInterval: '00:05:00',
      operationType: type,
      operationResultTypeId: 2,
    };
    const requests: { route: string; url: string; payload?: object }[] = [
      { route: 'PUT /v1/deviceOperations', url: '/v1/deviceOperations', payload: deviceOperation('Keys again') },
      { route: 'POST /v1/deviceOperations/:id', url: `/v1/deviceOperations/${id}`, payload: deviceOperation('Keys') },
      { route: 'POST /v1/deviceOperations/:id/enqueueOnDemand', url: `/v1/deviceOperations/${id}/enqueueOnDemand` },
      {
        route: 'POST /v1/deviceOperations/clone',
        url: '/v1/deviceOperations/clone',
        payload: { fromDeviceId: o.deviceId, toDeviceId: o.otherDeviceId, deviceOperationIdsToClone: id },
      },
      {
        route: 'PUT /v1/packages/:id/operations',
        url: `/v1/packages/${o.packageId}/operations`,
        payload: packageOperation,
      },
      {
        route: 'POST /v1/packages/:id/operations/:operationId',
        url: `/v1/packages/${o.packageId}/operations/${o.packageOperationId}`,
        payload: packageOperation,
      },
    ];
    const wrong: string[] = [];
    let refusedForHostAccess = 0;
    for (const request of requests) {
      const [method, url] = request.route.split(' ') as [string, string];
      const access = accessOf({ method, url });
      if (!access) throw new Error(`${request.route} is not in the expected access`);
      for (const caller of users) {
        const byRoute = expectation(caller, access);
        const expected = byRoute !== 'allow' ? byRoute : caller.permissions.has(hostAccess) ? 'allow' : 403;
        const response = await portal.app.inject({
          method: method as 'PUT' | 'POST',
          url: request.url,
          headers: caller.headers,
          ...(request.payload ? { payload: request.payload } : {}),
        });
        const said = `${request.route} as ${caller.name} answered ${response.statusCode}`;
        if (response.statusCode >= 500) wrong.push(`${said}: ${response.body.slice(0, 200)}`);
        else if (expected === 'allow' && (response.statusCode === 401 || response.statusCode === 403))
          wrong.push(`${said}, allowed: ${response.body.slice(0, 200)}`);
        else if (expected !== 'allow' && response.statusCode !== expected)
          wrong.push(`${said}, refused with ${expected}`);
        if (byRoute === 'allow' && expected === 403) {
          refusedForHostAccess += 1;
          if (!response.body.includes(message)) wrong.push(`${said} without saying ${permission.area} is needed`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // The operator and the users holding only the route's permission were refused on every route.
    expect(refusedForHostAccess).toBeGreaterThanOrEqual(requests.length * 2);
  });
});
