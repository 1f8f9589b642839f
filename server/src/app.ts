import fs from 'node:fs';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import { redactUrl } from './http/log-redaction.js';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps.js';
import { AREAS } from './areas.js';
import { auditedEntities } from './area.js';
import { registerAuthGate } from './auth/gate.js';
import type { PrincipalCache } from './auth/principal-cache.js';
import { registerChangeCounters } from './http/list-etag.js';
import type Provider from 'oidc-provider';
import { mountEmbeddedProvider } from './auth/embedded/provider.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerMachineRateLimits } from './http/rate-limits.js';
import { registerTenantShares } from './http/tenant-shares.js';
import { registerUnreadBodyClose } from './http/unread-bodies.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerJsonParser, registerStrictBodies } from './http/strict-bodies.js';
import { rewriteODataUrl } from './odata/url-rewrite.js';
import { registerRequestObservability, requestIdOf } from './observability/http.js';
import { ReadRouting } from './db/read-routing.js';
import { registerReadRouting } from './http/read-routing.js';
import { apiDocumentOptions } from './http/api-document.js';
import { registerDeprecationHeaders } from './http/deprecation.js';

/** Request log lines carry the address with sign-in material redacted (codes, tokens, ID token hints). */
export const requestLogSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  }),
};

/**
 * Who called, as far as the gate established it: a user's name and tenant, or a machine's device or
 * API token (its id, never the credential) and tenant. A refused request is logged with them too.
 */
function callerOf(request: FastifyRequest): { user?: string; tenant?: string; device?: string; apiToken?: string } {
  if (request.principal)
    return {
      user: request.principal.userName,
      ...(request.principal.tenantId ? { tenant: request.principal.tenantId } : {}),
    };
  const machine = request.machine;
  if (machine?.kind === 'device') return { device: machine.deviceId, tenant: machine.tenantId };
  if (machine?.kind === 'token') return { apiToken: machine.tokenGrantId, tenant: machine.tenantId };
  return {};
}

/**
 * One log line per request, when it completes (method, redacted address, the route it matched,
 * status, time, the caller), not Fastify's two: half the log for the same information. Refusals
 * (401, 403) are among them, so a denied request can be traced to its caller and route.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    // The identity provider's routes rewrite the raw address; the log shows the one the client sent.
    const url = (request.raw as { originalUrl?: string }).originalUrl ?? request.url;
    const line = {
      method: request.method,
      url: redactUrl(url),
      ...(request.routeOptions.url ? { route: request.routeOptions.url } : {}),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...callerOf(request),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request');
    else reply.log.info(line, 'request');
  }
}

/** Paths the server answers itself; anything else under GET is the single-page app. */
const SERVER_PREFIXES = [
  '/api/',
  '/v1/',
  '/oidc/',
  '/docs',
  '/openapi.json',
  '/healthz',
  '/readyz',
  '/metrics',
  '/downloads/',
];

export interface BuildAppOptions extends Omit<AppDeps, 'auditedEntities'> {
  /** Where reads may go (the read replica); without it every read goes to `db`. */
  reads?: ReadRouting;
  principals: PrincipalCache;
  /** The embedded identity provider, when the portal runs its own. */
  provider?: Provider;
  logger?: FastifyServerOptions['logger'];
  /** Sees every route as it is registered (the route-permission test walks them). */
  routeObserver?: (route: RouteOptions) => void;
}

/**
 * Builds the HTTP application: external plugins first (security headers, rate limits, API
 * documentation, authentication), then the areas, then the web app's files.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { db, config, verifier, secretBox, scriptSigner, provider, principals, changes } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, serializers: requestLogSerializers },
    logController: new OneLinePerRequest(),
    // The spec spells some paths both ways (generalLookup / generallookup, deviceOperations).
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    rewriteUrl: (request) => rewriteODataUrl(request.url ?? '/'),
    trustProxy: config.trustProxy,
    bodyLimit: 5 * 1024 * 1024,
    genReqId: requestIdOf,
  });
  registerRequestObservability(app);
  registerReadRouting(app, options.reads ?? new ReadRouting(db, undefined));
  registerUnreadBodyClose(app);
  // Request bodies are strict: an unknown member is a 400 that names it.
  registerStrictBodies(app);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // PATCH bodies are JSON Patch documents (RFC 6902), read as JSON bodies are.
  registerJsonParser(app, 'application/json-patch+json');

  // Security headers first, so that every answer carries them, refusals included.
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", ...(config.oidc.embedded ? [] : [new URL(config.oidc.authority).origin])],
        formAction: ["'self'", ...config.devOrigins],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  // Rate limits before the gate, so that a call past its limit costs no credential lookup.
  await app.register(rateLimit, { global: false });
  registerMachineRateLimits(app, config.machineRateLimitPerMinute);
  // Before any route, so that its check sees every route, the libraries' included.
  registerAuthGate(app, { db, config, verifier, principals, provider });
  // After the gate, which names the caller's tenant.
  registerTenantShares(app, config.tenantConcurrentReads);
  if (options.routeObserver) app.addHook('onRoute', options.routeObserver);

  // External plugins.
  // Answers over 1 KB travel compressed to clients that accept it (the web app's files are
  // compressed once at build time and sent as they are).
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  registerDeprecationHeaders(app);
  await app.register(swagger, apiDocumentOptions(config, AREAS));
  // The API reference: tags open, operations collapsed, searchable by tag, their ids shown, "Try it" ready,
  // and the credential given with Authorize kept across reloads of the page.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: {
      layout: 'BaseLayout',
      docExpansion: 'list',
      filter: true,
      displayOperationId: true,
      persistAuthorization: true,
      tryItOutEnabled: true,
    },
    theme: { title: `${config.environment.name} API` },
  });
  app.get('/openapi.json', { config: { permission: 'public' }, schema: { hide: true } }, () => app.swagger());
  if (provider) await mountEmbeddedProvider(app, db, config, provider, principals);

  // The areas (server/src/areas.ts); their lists are tagged with the tables' change counters.
  registerChangeCounters(app, changes, secretBox);
  const deps: AppDeps = {
    db,
    config,
    verifier,
    secretBox,
    scriptSigner,
    listener: options.listener,
    changes,
    auditedEntities: auditedEntities(AREAS),
  };
  for (const area of AREAS) {
    if (area.routes) await app.register(area.routes(deps));
  }

  redirectPagesToPublicUrl(app, config.publicUrl);
  await serveWebApp(app, config.webDist);
  return app;
}

/**
 * Pages are served at PUBLIC_URL's address only: sign-in is bound to that origin (the provider's
 * issuer, redirect addresses, the browser's content security policy), so a page opened at another
 * address (127.0.0.1 for localhost) is sent to the same path at PUBLIC_URL instead of showing a
 * login that cannot work.
 */
function redirectPagesToPublicUrl(app: FastifyInstance, publicUrl: string): void {
  const canonical = new URL(publicUrl);
  const host = canonical.host.toLowerCase();
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    const url = request.url.toLowerCase();
    if (SERVER_PREFIXES.some((prefix) => url.startsWith(prefix)) || request.host.toLowerCase() === host) return done();
    // Answered here: the request goes no further (a hook that answers does not call done).
    void reply.redirect(samePathAt(canonical, request.url), 302);
  });
}

/**
 * The request's path and query at PUBLIC_URL's origin. The path is set as a path, never resolved as
 * a reference: resolved, `//evil.example/x` or `/\evil.example/x` would be another host's address.
 */
function samePathAt(canonical: URL, requestUrl: string): string {
  const target = new URL(canonical.origin);
  const query = requestUrl.indexOf('?');
  target.pathname = query === -1 ? requestUrl : requestUrl.slice(0, query);
  target.search = query === -1 ? '' : requestUrl.slice(query);
  return target.toString();
}

async function serveWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const hasWebApp = fs.existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: ['index.html'],
      preCompressed: true,
      // Hashed assets never change; the page itself must be revalidated so a new build is picked up.
      setHeaders: (response, filePath) => {
        response.header(
          'Cache-Control',
          /\.html(\.br|\.gz)?$/.test(filePath) ? 'no-cache' : 'public, max-age=31536000, immutable',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.toLowerCase();
    const isServerPath = SERVER_PREFIXES.some((prefix) => url.startsWith(prefix));
    if (request.method !== 'GET' || isServerPath || !hasWebApp) {
      return reply.code(404).send({ message: 'Not found.' });
    }
    // Client-side routes (/tenants, /{tenantId}/devices, unknown paths → the app's 404 page).
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html', webDist);
  });
}
