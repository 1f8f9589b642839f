import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AGENT_MESSAGES } from '@cfs/contracts/agent';
import type { Config } from '../config.js';
import type { JWTPayload } from 'jose';
import type Provider from 'oidc-provider';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { declarationProblem } from '../http/route-permission.js';
import { metrics } from '../observability/metrics.js';
import { hashPayloadId } from './embedded/adapter.js';
import type { Principal } from './principal.js';
import type { PrincipalCache } from './principal-cache.js';
import { authenticateMachine } from './machine-callers.js';
import { loadPrincipal } from './principals.js';
import type { TokenVerifier } from './verify.js';

/** Routes registered by libraries (API docs, static files) that cannot carry our config: public. */
const LIBRARY_PREFIXES = ['/docs', '/openapi.json', '/*'];

/** Every route must say who may call it; registering one that doesn't, or says it wrongly, stops the server. */
function checkDeclaration(route: RouteOptions): void {
  const declared: unknown = route.config?.permission;
  if (
    declared === undefined &&
    LIBRARY_PREFIXES.some((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`))
  ) {
    route.config = { ...route.config, permission: 'public' };
    return;
  }
  const problem = declarationProblem(declared);
  if (problem) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    throw new Error(`Route ${methods.join(',')} ${route.url} ${problem}`);
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/**
 * The sign-in an access token of the embedded provider belongs to, while it lives (not signed out,
 * revoked or expired) and is the token subject's own. Every such token names one (`gid`): a token
 * that names none, an ended one or another user's is refused, so the signing key alone (a leaked
 * key file, a backup) is no way in (DESIGN: a signed token is accepted only while its sign-in lives).
 */
async function liveGrantOf(provider: Provider, claims: JWTPayload): Promise<string | undefined> {
  if (typeof claims.gid !== 'string' || typeof claims.sub !== 'string') return undefined;
  const grant = await provider.Grant.find(claims.gid);
  return grant?.accountId === claims.sub ? claims.gid : undefined;
}

/**
 * Who sends the token: from the principal cache, or verified, checked against its sign-in grant
 * and loaded from the database (then cached until something about the caller changes).
 */
async function authenticate(deps: GateDeps, token: string): Promise<Principal> {
  const cached = deps.principals.get(token);
  metrics.principalCache.inc({ result: cached ? 'hit' : 'miss' });
  if (cached) return cached.principal;
  const mark = deps.principals.mark();
  let claims;
  try {
    claims = await deps.verifier.verify(token);
  } catch {
    throw new HttpError(401, 'The access token is not valid.');
  }
  let grantId: string | undefined;
  if (deps.config.oidc.embedded) {
    if (!deps.provider) throw new Error('The embedded identity provider is needed to check its sign-ins');
    grantId = await liveGrantOf(deps.provider, claims);
    if (!grantId) throw new HttpError(401, 'The sign-in has ended; please sign in again.');
  }
  const principal = await loadPrincipal(deps.db, deps.config, claims);
  if (!principal) throw new HttpError(401, 'The signed-in user is not known to the portal or is disabled.');
  // Stored as the database knows it: the grant's announcement names its hashed id.
  deps.principals.set(token, claims, principal, grantId && hashPayloadId(grantId), mark);
  return principal;
}

interface GateDeps {
  db: Db;
  config: Config;
  verifier: TokenVerifier;
  principals: PrincipalCache;
  /** The embedded identity provider, whose sign-in grants its access tokens name. */
  provider?: Provider | undefined;
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
    if (typeof permission === 'object' && 'machine' in permission) {
      const machine = await authenticateMachine(deps.db, token, deps.principals);
      if (!machine.ok) throw new HttpError(401, machine.message);
      request.machine = machine.caller;
      if (!permission.machine.includes(machine.caller.kind))
        throw new HttpError(
          403,
          machine.caller.kind === 'device' ? AGENT_MESSAGES.notAToken : AGENT_MESSAGES.notADevice,
        );
      return;
    }
    const principal = await authenticate(deps, token);
    request.principal = principal;
    if (permission === 'signed-in') return;
    const required = typeof permission === 'string' ? [permission] : permission;
    if (!required.some((needed) => principal.permissions.allows(needed))) {
      throw new HttpError(403, 'You do not have access to one or more requested resources');
    }
  });
}
