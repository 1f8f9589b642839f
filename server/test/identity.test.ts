import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalUser, createTenantAs, unique } from './factories.js';
import { createListeningPortal, createTestPortal, type TestPortal } from './harness.js';
import {
  Browser,
  endSession,
  exchangeCode,
  refresh,
  revokeRefreshToken,
  signIn as signInAt,
  tokensFor as tokensAt,
  type SignInTokens,
} from './sign-in-flow.js';

/**
 * The embedded identity provider, spoken to as a browser would: authorization code with PKCE,
 * the portal's sign-in page, the token endpoint, silent renewal with the refresh token.
 */
let portal: TestPortal;
let origin: string;

beforeAll(async () => {
  portal = await createListeningPortal();
  origin = portal.config.publicUrl;
});

afterAll(async () => {
  await portal?.close();
});

const signIn = (browser: Browser, userName: string, password: string) => signInAt(origin, browser, userName, password);
const tokensFor = (userName: string) => tokensAt(origin, userName);
const api = (path: string, accessToken: string) =>
  fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });

describe('sign-in records at rest', () => {
  it('hold no token, session id or grant id that could be presented', async () => {
    const { browser, tokens } = await tokensFor('admin');
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()) as {
      jti: string;
      gid: string;
    };
    const sessionCookie = browser.cookie('_session') ?? '';
    expect(sessionCookie).not.toBe('');
    const { rows } = await sql<{ dump: string }>`SELECT string_agg(t::text, ' ') AS dump FROM oidc_payload t`.execute(
      portal.db,
    );
    const dump = rows[0]?.dump ?? '';
    expect(dump.length).toBeGreaterThan(0);
    for (const secret of [tokens.refresh_token, claims.jti, claims.gid, sessionCookie])
      expect(dump).not.toContain(secret);
    // And the records still work: the refresh token renews.
    expect((await refresh(origin, tokens.refresh_token)).status).toBe(200);
  });
});

describe('signing out ends the access token too', () => {
  it('refuses the access token on the next request once the session is ended at the provider', async () => {
    const { browser, tokens } = await tokensFor('operator');
    expect((await api('/v1/permissions', tokens.access_token)).status).toBe(200);
    expect((await api('/v1/permissions', tokens.access_token)).status).toBe(200);
    const ended = await endSession(browser, tokens.id_token);
    expect(ended.status).toBeLessThan(400);
    const after = await api('/v1/permissions', tokens.access_token);
    expect(after.status).toBe(401);
  });

  it('refuses the access token once its refresh token is revoked', async () => {
    const { tokens } = await tokensFor('admin');
    expect((await api('/v1/currentUser', tokens.access_token)).status).toBe(200);
    const revoked = await revokeRefreshToken(origin, tokens.refresh_token);
    expect(revoked.status).toBe(200);
    expect((await api('/v1/currentUser', tokens.access_token)).status).toBe(401);
  });
});

describe('a refresh token is spent on use', () => {
  it('renews once with a new refresh token; presented again it is refused (invalid_grant) and ends the sign-in, the tokens renewed from it included', async () => {
    const { tokens } = await tokensFor('operator');
    const renewal = await refresh(origin, tokens.refresh_token);
    expect(renewal.status).toBe(200);
    const renewed = (await renewal.json()) as SignInTokens;
    expect(renewed.refresh_token).toBeTruthy();
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api('/v1/currentUser', renewed.access_token)).status).toBe(200);

    const replay = await refresh(origin, tokens.refresh_token);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await api('/v1/currentUser', renewed.access_token)).status).toBe(401);
    expect((await api('/v1/currentUser', tokens.access_token)).status).toBe(401);
    const newer = await refresh(origin, renewed.refresh_token);
    expect(newer.status).toBe(400);
    expect(((await newer.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('lets one of two renewals presenting the same refresh token at once through at most, and ends the sign-in', async () => {
    const { tokens } = await tokensFor('operator');
    const answers = await Promise.all(Array.from({ length: 4 }, () => refresh(origin, tokens.refresh_token)));
    const renewed = await Promise.all(
      answers.filter((answer) => answer.status === 200).map(async (answer) => (await answer.json()) as SignInTokens),
    );
    expect(renewed.length).toBeLessThanOrEqual(1);
    // However the race went, the token was presented again: the sign-in is over, renewed tokens included.
    for (const tokenSet of [tokens, ...renewed])
      expect((await api('/v1/currentUser', tokenSet.access_token)).status).toBe(401);
    for (const tokenSet of renewed) expect((await refresh(origin, tokenSet.refresh_token)).status).toBe(400);
  });

  it('renews again and again with each new refresh token', async () => {
    const { tokens } = await tokensFor('enduser');
    let current = tokens.refresh_token;
    for (let renewal = 0; renewal < 3; renewal++) {
      const response = await refresh(origin, current);
      expect(response.status).toBe(200);
      const renewed = (await response.json()) as SignInTokens;
      expect((await api('/v1/currentUser', renewed.access_token)).status).toBe(200);
      current = renewed.refresh_token;
    }
  });
});

describe('signing out ends an offline sign-in too', () => {
  it('refuses the refresh token and the access token of a sign-in that asked for offline_access with prompt=consent once its session is ended', async () => {
    const { browser, tokens } = await tokensAt(origin, 'operator', 'operator', 'consent');
    const granted = await portal.runtime.provider?.RefreshToken.find(tokens.refresh_token);
    expect(granted?.scopes.has('offline_access')).toBe(true);
    expect((await api('/v1/currentUser', tokens.access_token)).status).toBe(200);
    expect((await endSession(browser, tokens.id_token)).status).toBeLessThan(400);
    const renewal = await refresh(origin, tokens.refresh_token);
    expect(renewal.status).toBe(400);
    expect((await api('/v1/currentUser', tokens.access_token)).status).toBe(401);
  });
});

describe('embedded identity provider', () => {
  it('advertises in discovery only the authorization code flow its client may use', async () => {
    const discovery = (await (await fetch(`${origin}/oidc/.well-known/openid-configuration`)).json()) as {
      response_types_supported: string[];
      grant_types_supported: string[];
    };
    expect(discovery.response_types_supported).toEqual(['code']);
    expect(discovery.grant_types_supported).not.toContain('implicit');
  });

  it('publishes its discovery document with the endpoints under /oidc', async () => {
    const response = await fetch(`${origin}/oidc/.well-known/openid-configuration`);
    const discovery = (await response.json()) as Record<string, unknown>;
    expect(discovery.issuer).toBe(`${origin}/oidc`);
    expect(discovery.token_endpoint).toBe(`${origin}/oidc/token`);
    expect(discovery.code_challenge_methods_supported).toContain('S256');
  });

  it('shows its own sign-in page, loading nothing from the internet, with the demo notice', async () => {
    const { loginPage } = await signIn(new Browser(origin), 'nobody', 'x');
    expect(loginPage).toContain('Sign in');
    expect(loginPage).toContain('each password equals the user name');
    expect(loginPage).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('rejects a wrong password on the sign-in page', async () => {
    const { submitted } = await signIn(new Browser(origin), 'operator', 'wrong');
    expect(submitted.status).toBe(401);
    expect(await submitted.text()).toContain('The user name or password is not correct.');
  });

  it('signs in with code + PKCE, issues a JWT access token the API accepts, and renews it with the refresh token', async () => {
    const browser = new Browser(origin);
    const { submitted, verifier, state } = await signIn(browser, 'operator', 'operator');
    const callback = new URL(await browser.follow(submitted));
    expect(callback.searchParams.get('state')).toBe(state);
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();

    const tokenResponse = await exchangeCode(origin, code ?? '', verifier);
    const tokens = (await tokenResponse.json()) as { access_token: string; refresh_token?: string; id_token?: string };
    expect(tokenResponse.status).toBe(200);
    expect(tokens.access_token.split('.')).toHaveLength(3);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.id_token).toBeTruthy();

    const me = await fetch(`${origin}/v1/currentUser`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { userName: string }).userName).toBe('operator');

    const renewed = await refresh(origin, tokens.refresh_token ?? '');
    expect(renewed.status).toBe(200);
    const renewedTokens = (await renewed.json()) as { access_token: string };
    const again = await fetch(`${origin}/v1/permissions`, {
      headers: { authorization: `Bearer ${renewedTokens.access_token}` },
    });
    expect(again.status).toBe(200);
  });

  it('refuses a code exchange without the PKCE verifier', async () => {
    const browser = new Browser(origin);
    const { submitted } = await signIn(browser, 'admin', 'admin');
    const code = new URL(await browser.follow(submitted)).searchParams.get('code') ?? '';
    const response = await exchangeCode(origin, code);
    expect(response.status).toBe(400);
  });

  it('serves as the external identity provider of another portal (discovery, keys, roles, tenants and groups claims)', async () => {
    const tenant = await createTenantAs(portal, 'admin', { name: `Signed-in tenant ${unique()}` });
    const person = await createLocalUser(portal, tenant.tenantId);
    const browser = new Browser(origin);
    const { submitted, verifier } = await signIn(browser, person.userName, person.password);
    const code = new URL(await browser.follow(submitted)).searchParams.get('code') ?? '';
    const tokenResponse = await exchangeCode(origin, code, verifier);
    const { access_token } = (await tokenResponse.json()) as { access_token: string };
    const other = await createTestPortal({
      OIDC_AUTHORITY: `${origin}/oidc`,
      OIDC_CLIENT_ID: 'cfs-portal',
      OIDC_AUDIENCE: portal.config.oidc.audience,
    });
    try {
      // The other portal knows the tenant by its id, as two portals of one organisation would; not the person.
      await other.db
        .insertInto('tenant')
        .values({ tenant_id: tenant.tenantId, name: tenant.name, created_by: 'test', modified_by: 'test' })
        .execute();
      const call = (url: string) =>
        other.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${access_token}` } });
      const me = await call('/v1/currentUser');
      expect(me.statusCode).toBe(200);
      // The other portal has no record of the person's groups: they come from the token's groups claim.
      expect(me.json()).toMatchObject({
        userName: person.userName,
        name: person.displayName,
        groups: person.groups,
      });
      const permissions = (await call('/v1/permissions')).json<string[]>();
      expect(permissions).toContain('CFS.Devices:edit');
      expect(permissions).not.toContain('CFS.Tenants:view');
      const tenants = (await call('/api/generallookup/tenants')).json<{ name: string }[]>();
      expect(tenants.map((row) => row.name)).toEqual([tenant.name]);
      const config = (await other.app.inject({ method: 'GET', url: '/api/generalLookup/oidcclientconfig' })).json();
      expect(config).toMatchObject({ authority: `${origin}/oidc`, clientId: 'cfs-portal' });
      const forged = await other.app.inject({
        method: 'GET',
        url: '/v1/currentUser',
        headers: { authorization: `Bearer ${await portal.token('admin')}x` },
      });
      expect(forged.statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('keeps its sessions in the database', async () => {
    const rows = await portal.db.selectFrom('oidc_payload').select(['type']).distinct().execute();
    expect(rows.map((row) => row.type)).toEqual(expect.arrayContaining(['Session', 'Grant', 'RefreshToken']));
  });
});
