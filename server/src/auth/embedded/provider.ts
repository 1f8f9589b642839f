import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { createAdapterFactory } from './adapter.js';
import { ACCOUNT_FAILURE_WINDOW_MINUTES, checkSignIn } from './sign-in.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { ProviderKeys } from './keys.js';
import { loginPage, logoutPage, messagePage } from './pages.js';
import type { ServerResponse } from 'node:http';
import type { PrincipalCache } from '../principal-cache.js';

export const EMBEDDED_PREFIX = '/oidc';

/** The demo users named on the sign-in page while the demo seed is on. */
const DEMO_USER_NAMES = ['admin', 'operator', 'enduser', 'operator2'] as const;

interface Account {
  user_id: string;
  all_tenants: boolean;
  assignment_groups: string[];
  user_name: string;
  display_name: string;
  email: string | null;
  tenant_id: string | null;
}

/** The provider's account id (the token's `sub`) is the user name: unique, stable, and known to scripts. */
async function findAccount(db: Db, userName: string): Promise<Account | undefined> {
  return db
    .selectFrom('app_user')
    .select(['user_id', 'user_name', 'display_name', 'email', 'tenant_id', 'all_tenants', 'assignment_groups'])
    .where('user_name', '=', userName)
    .where('enabled', '=', true)
    .executeTakeFirst();
}

/**
 * The embedded OpenID provider (oidc-provider): authorization code + PKCE for the portal's
 * public browser client, JWT access tokens for the API audience, refresh tokens for silent
 * renewal. First-party: the grant is given without a consent screen.
 */
export function createEmbeddedProvider(db: Db, config: Config, keys: ProviderKeys, box: SecretBox): Provider {
  const { authority, clientId, audience } = config.oidc;
  const origins = [config.publicUrl, ...config.devOrigins];
  const accessTokenTtl = config.accessTokenTtlSeconds;

  const configuration: Configuration = {
    adapter: createAdapterFactory(db, box),
    // Only what the portal's client uses: discovery must not advertise the implicit or hybrid flows.
    responseTypes: ['code'],
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: origins.map((origin) => `${origin}/user/callback`),
        post_logout_redirect_uris: origins.map((origin) => `${origin}/user/login`),
      },
    ],
    jwks: { keys: [keys.signing] },
    cookies: {
      keys: keys.cookieKeys,
      long: { signed: true, sameSite: 'lax' },
      short: { signed: true, sameSite: 'lax' },
      // Served over HTTPS, the session cookie is a `__Host-` cookie (secure, whole site, this host
      // only: no subdomain or plain-HTTP page can set or shadow it). The interaction cookies are
      // bound to their interaction's path, which `__Host-` forbids, so they take `__Secure-`.
      ...(new URL(config.publicUrl).protocol === 'https:'
        ? {
            names: {
              session: '__Host-session',
              interaction: '__Secure-interaction',
              resume: '__Secure-interaction_resume',
            },
          }
        : {}),
    },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username', 'tenant_id'], email: ['email'] },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx, form) {
          const nonce = randomBytes(16).toString('base64url');
          ctx.set(
            'Content-Security-Policy',
            `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'`,
          );
          ctx.body = logoutPage(config.environment.name, form, nonce);
        },
        postLogoutSuccessSource(ctx) {
          ctx.body = messagePage(config.environment.name, 'Signed out', 'You have been signed out.');
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'api',
          audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: accessTokenTtl,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    ttl: {
      // A function: a plain number would override the resource server's own TTL.
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Grant: config.sessionLifetimeSeconds,
      Session: config.sessionLifetimeSeconds,
      RefreshToken: config.sessionLifetimeSeconds,
    },
    issueRefreshToken: (_ctx, client) => Promise.resolve(client.grantTypeAllowed('refresh_token')),
    // Revoking a refresh token (the browser does at sign-out) ends the whole grant, its access tokens included.
    revokeGrantPolicy: () => true,
    // Every renewal spends its refresh token and returns a new one; a spent one presented again is
    // taken for a stolen copy: the provider refuses it and ends the whole grant, the newer tokens
    // included (ASVS 5.0 V10.4.5, OAuth 2.0 Security BCP §4.14). The browser's tabs share one stored
    // sign-in, so they take turns to renew (web/src/auth/renewal-lock.ts) and never spend one twice.
    rotateRefreshToken: true,
    // Every token and code is bound to the sign-in session, offline_access or not: ending the session
    // (sign-out) ends every grant it made, where the provider would otherwise keep an offline one.
    expiresWithSession: () => true,
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const existing = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (existing) {
        const grant = await ctx.oidc.provider.Grant.find(existing);
        if (grant) return grant;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email offline_access');
      grant.addOIDCClaims(['name', 'preferred_username', 'email', 'tenant_id']);
      grant.addResourceScope(audience, 'api');
      await grant.save();
      return grant;
    },
    // Roles, tenants and groups travel in the token as an external provider's would (OIDC_ROLES_CLAIM,
    // OIDC_TENANTS_CLAIM, OIDC_GROUPS_CLAIM), so another portal can use this one as its identity provider.
    // `gid` binds an access token to its sign-in grant: the API refuses it once the grant ends
    // (sign-out, revocation of the refresh token), though the token itself has not expired.
    async extraTokenClaims(_ctx, token) {
      if (!('accountId' in token) || typeof token.accountId !== 'string') return undefined;
      const grantClaim = 'grantId' in token && typeof token.grantId === 'string' ? { gid: token.grantId } : {};
      const account = await findAccount(db, token.accountId);
      if (!account) return undefined;
      const [roles, tenants] = await Promise.all([
        db
          .selectFrom('user_role')
          .innerJoin('app_role', 'app_role.role_id', 'user_role.role_id')
          .select('app_role.name')
          .where('user_role.user_id', '=', account.user_id)
          .execute(),
        db.selectFrom('user_tenant').select('tenant_id').where('user_id', '=', account.user_id).execute(),
      ]);
      return {
        ...grantClaim,
        tenant_id: account.tenant_id,
        preferred_username: account.user_name,
        name: account.display_name,
        email: account.email,
        [config.oidc.rolesClaim]: roles.map((role) => role.name),
        [config.oidc.tenantsClaim]: account.all_tenants ? ['*'] : tenants.map((tenant) => tenant.tenant_id),
        [config.oidc.groupsClaim]: account.assignment_groups,
      };
    },
    async findAccount(_ctx, sub) {
      const account = await findAccount(db, sub);
      if (!account) return undefined;
      return {
        accountId: account.user_name,
        claims: () => ({
          sub: account.user_name,
          name: account.display_name,
          preferred_username: account.user_name,
          email: account.email,
          tenant_id: account.tenant_id,
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `${EMBEDDED_PREFIX}/interaction/${interaction.uid}` },
    renderError(ctx: KoaContextWithOIDC, out) {
      ctx.type = 'html';
      const message = typeof out.error_description === 'string' ? out.error_description : String(out.error);
      ctx.body = messagePage(config.environment.name, 'Sign-in problem', message);
    },
  };
  const provider = new Provider(authority, configuration);
  // Behind a TLS-terminating proxy (TRUST_PROXY) the provider trusts X-Forwarded-Proto to build https URLs.
  provider.proxy = config.trustProxy !== false;
  return provider;
}

function parseForm(body: unknown): Record<string, string> {
  return typeof body === 'object' && body !== null ? (body as Record<string, string>) : {};
}

/**
 * Mounts the provider on the portal's origin under /oidc. The provider reads request bodies
 * itself, so its scope has no body parsing; the sign-in form has its own small scope.
 */
const ACCOUNT_LOCKED_MESSAGE = `Too many failed sign-ins for this account. Try again in ${ACCOUNT_FAILURE_WINDOW_MINUTES} minutes.`;

/**
 * A sign-out or a revocation (POSTs to the provider) ends grants; the answer is held until this
 * instance has applied the announcements, so the ended access token is refused on the very next
 * request here (other instances apply them within the NOTIFY's round trip).
 */
function holdAnswerUntilSynced(response: ServerResponse, principals: PrincipalCache): void {
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  response.end = ((...args: unknown[]) => {
    void principals.sync().finally(() => end(...args));
    return response;
  }) as ServerResponse['end'];
}

export async function mountEmbeddedProvider(
  app: FastifyInstance,
  db: Db,
  config: Config,
  provider: Provider,
  principals: PrincipalCache,
): Promise<void> {
  const demoUsers = config.demoSeed ? DEMO_USER_NAMES : undefined;
  const productName = config.environment.name;
  const callback = provider.callback();
  const publicHost = new URL(config.publicUrl).host;
  const publicProtocol = new URL(config.publicUrl).protocol.replace(':', '');
  // Read X-Forwarded-Proto, which is set above from PUBLIC_URL (https behind a proxy).
  provider.proxy = true;

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    scope.get(
      '/oidc/interaction/:uid',
      { config: { permission: 'public' }, schema: { hide: true } },
      async (request, reply) => {
        const details = await provider.interactionDetails(request.raw, reply.raw);
        const uid = (request.params as { uid: string }).uid;
        if (details.prompt.name !== 'login') {
          // First-party grants are given automatically; nothing else to ask.
          const result = { consent: {} };
          await provider.interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: true });
          return reply.hijack();
        }
        return reply
          .type('text/html')
          .send(loginPage({ productName, action: `${EMBEDDED_PREFIX}/interaction/${uid}/login`, demoUsers }));
      },
    );

    scope.post(
      '/oidc/interaction/:uid/login',
      { config: { permission: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } }, schema: { hide: true } },
      async (request: FastifyRequest, reply) => {
        const uid = (request.params as { uid: string }).uid;
        await provider.interactionDetails(request.raw, reply.raw);
        const form = parseForm(request.body);
        const userName = (form.username ?? '').trim();
        const result = await checkSignIn(db, userName, form.password ?? '');
        if (!result.ok) {
          const error =
            result.reason === 'locked' ? ACCOUNT_LOCKED_MESSAGE : 'The user name or password is not correct.';
          if (result.reason === 'locked') void reply.header('Retry-After', String(result.retryAfterSeconds));
          return reply
            .code(result.reason === 'locked' ? 429 : 401)
            .type('text/html')
            .send(
              loginPage({
                productName,
                action: `${EMBEDDED_PREFIX}/interaction/${uid}/login`,
                userName,
                error,
                demoUsers,
              }),
            );
        }
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { login: { accountId: result.userName } },
          { mergeWithLastSubmission: false },
        );
        return reply.hijack();
      },
    );
  });

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    // The provider's own endpoints are described by its discovery document, not the API's.
    scope.all('/oidc/*', { config: { permission: 'public' }, schema: { hide: true } }, (request, reply) => {
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(EMBEDDED_PREFIX.length) || '/';
      // Every address the provider writes (discovery, redirects) derives from PUBLIC_URL, never from
      // the request's Host or X-Forwarded-* headers, which the caller chooses.
      raw.headers.host = publicHost;
      delete raw.headers['x-forwarded-host'];
      if (config.trustProxy === false) delete raw.headers['x-forwarded-for'];
      raw.headers['x-forwarded-proto'] = publicProtocol;
      if (raw.method === 'POST') holdAnswerUntilSynced(reply.raw, principals);
      callback(raw, reply.raw);
    });
  });
}
