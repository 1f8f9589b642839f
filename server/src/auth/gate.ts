import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import type { RoutePermission } from '../http/route-permission.js';
import { metrics } from '../observability/metrics.js';
import { hashPayloadId } from './embedded/adapter.js';
import type { Principal } from './principal.js';
import type { PrincipalCache } from './principal-cache.js';
import { authenticateMachine } from './machine-callers.js';
import { loadPrincipal } from './principals.js';
import type { TokenVerifier } from './verify.js';

/**
 * Routes that answer without a caller. Anything else marked 'public' fails the route test and
 * start-up: the list is the whole truth about what the portal serves anonymously.
 */
export const PUBLIC_ROUTES: readonly { method: string; url: string; prefix?: true }[] = [
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/readyz' },
  // Prometheus scrapers: the route checks METRICS_TOKEN itself (no user signs in to scrape).
  { method: 'GET', url: '/metrics' },
  { method: 'GET', url: '/api/generalLookup/oidcclientconfig' },
  // The login page asks whether the access-request form is on before anyone signs in.
  { method: 'GET', url: '/v1/features/:name/enabled' },
  // The access request a visitor who cannot sign in sends from the login page (rate-limited, bot-guarded).
  { method: 'POST', url: '/api/v1/accessrequest' },
  // A communication's published external report: the unguessable link is the key (rate-limited).
  { method: 'GET', url: '/v1/public/status/:token' },
  { method: 'GET', url: '/api/v1/public/status/:token' },
  { method: 'GET', url: '/oidc/interaction/:uid' },
  { method: 'POST', url: '/oidc/interaction/:uid/login' },
  { method: '*', url: '/oidc/*' },
  { method: 'GET', url: '/openapi.json' },
  // The agent's single executables: the download link a new machine opens before it has any credential.
  { method: 'GET', url: '/downloads/agent/:file' },
  // The API documentation page and its assets.
  { method: 'GET', url: '/docs', prefix: true },
  { method: 'GET', url: '/*' },
];

/** Routes registered by libraries (API docs, static files) that cannot carry our config. */
const LIBRARY_PREFIXES = ['/docs', '/openapi.json', '/*'];

function methodsOf(route: RouteOptions): string[] {
  return (Array.isArray(route.method) ? route.method : [route.method]).map((method) => method.toUpperCase());
}

export function isListedPublic(method: string, url: string): boolean {
  const path = url.toLowerCase();
  return PUBLIC_ROUTES.some((entry) => {
    const listed = entry.url.toLowerCase();
    const matches = path === listed || (entry.prefix === true && path.startsWith(`${listed}/`));
    return matches && (entry.method === '*' || entry.method === method || method === 'HEAD');
  });
}

/** Every route must say what it needs; registering one that doesn't stops the server. */
function checkDeclaration(route: RouteOptions): void {
  const config = (route.config ?? {}) as { permission?: RoutePermission };
  if (!config.permission && LIBRARY_PREFIXES.some((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`))) {
    route.config = { ...route.config, permission: 'public' };
    return;
  }
  if (!config.permission) throw new Error(`Route ${methodsOf(route).join(',')} ${route.url} declares no permission`);
  if (config.permission === 'public' && !methodsOf(route).every((method) => isListedPublic(method, route.url))) {
    throw new Error(`Route ${methodsOf(route).join(',')} ${route.url} is public but not in the list of public routes`);
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** Whether the sign-in grant an access token belongs to still exists (not signed out, not revoked). */
async function grantAlive(db: Db, grantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('oidc_payload')
    .select('id')
    .where('type', '=', 'Grant')
    .where('id', '=', hashPayloadId(grantId))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Who sends the token: from the principal cache, or verified, checked against its sign-in grant
 * and loaded from the database (then cached until something about the caller changes).
 */
async function authenticate(deps: GateDeps, token: string): Promise<Principal> {
  const cached = deps.principals.get(token);
  metrics.principalCache.inc({ result: cached ? 'hit' : 'miss' });
  if (cached) return cached.principal;
  let claims;
  try {
    claims = await deps.verifier.verify(token);
  } catch {
    throw new HttpError(401, 'The access token is not valid.');
  }
  const grantId = deps.config.oidc.embedded && typeof claims.gid === 'string' ? claims.gid : undefined;
  if (grantId && !(await grantAlive(deps.db, grantId))) throw new HttpError(401, 'The sign-in has ended; please sign in again.');
  const principal = await loadPrincipal(deps.db, deps.config, claims);
  if (!principal) throw new HttpError(401, 'The signed-in user is not known to the portal or is disabled.');
  // Stored as the database knows it: the grant's announcement names its hashed id.
  deps.principals.set(token, claims, principal, grantId && hashPayloadId(grantId));
  return principal;
}

interface GateDeps {
  db: Db;
  config: Config;
  verifier: TokenVerifier;
  principals: PrincipalCache;
}

/**
 * The gate every request passes: verifies the bearer token, loads the caller, checks the
 * route's permission. 401 for no or an invalid token, 403 for a missing permission.
 */
export function registerAuthGate(app: FastifyInstance, deps: GateDeps): void {
  app.decorateRequest('principal', undefined);
  app.decorateRequest('machine', undefined);
  app.addHook('onRoute', checkDeclaration);
  // A caller's own change (their tenant context, a sign-out, a revoked token) holds on their next
  // request: before a write is answered, this instance applies every announcement committed so far.
  // Callback style: a read (most requests) passes without a promise and a turn of the event loop.
  app.addHook('onSend', (request, reply, payload, done) => {
    // What a signed-in caller is told is theirs alone: no browser or proxy keeps a copy.
    if (request.principal) reply.header('Cache-Control', 'no-store');
    if (request.method === 'GET' || request.method === 'HEAD') return done(null, payload);
    // A refused request changed nothing, and a flood of them must not cost a database round trip each.
    if (reply.statusCode === 401 || reply.statusCode === 403) return done(null, payload);
    // A machine's write (packets, an agent's reports) changes no one's permissions or tenants, and
    // agents post all the time: they do not wait for the announcements.
    if (request.machine) return done(null, payload);
    deps.principals.sync().then(
      () => done(null, payload),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
  app.addHook('onRequest', async (request) => {
    const permission = request.routeOptions.config.permission;
    if (!permission || permission === 'public') return;
    const token = bearerToken(request);
    if (!token) throw new HttpError(401, 'Authentication is required.');
    if (permission === 'machine') {
      const machine = await authenticateMachine(deps.db, token);
      if (!machine.ok) throw new HttpError(401, machine.message);
      request.machine = machine.caller;
      return;
    }
    const principal = await authenticate(deps, token);
    request.principal = principal;
    const required = permission === 'authenticated' ? [] : Array.isArray(permission) ? permission : [permission];
    if (required.length > 0 && !required.some((needed) => principal.permissions.allows(needed))) {
      throw new HttpError(403, 'You do not have access to one or more requested resources');
    }
  });
}
