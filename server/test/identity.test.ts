import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createTestPortal, type TestPortal } from './harness.js';
import type { FastifyInstance } from 'fastify';

/**
 * The embedded identity provider, spoken to as a browser would: authorization code with PKCE,
 * the portal's sign-in page, the token endpoint, silent renewal with the refresh token.
 */
let portal: TestPortal;
let server: FastifyInstance;
let origin: string;

class Browser {
  private readonly cookies = new Map<string, string>();

  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(new URL(url, origin), { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      if (name) this.cookies.set(name.trim(), rest.join('='));
    }
    return response;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Follows redirects until one leaves for the portal's callback, and returns that address. */
  async follow(response: Response): Promise<string> {
    let current = response;
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get('location');
      if (!location) throw new Error(`Expected a redirect, got ${current.status}: ${await current.text()}`);
      const next = new URL(location, origin);
      if (next.pathname === '/user/callback') return next.toString();
      current = await this.go(next.toString());
      if (current.status === 200) return next.toString();
    }
    throw new Error('Too many redirects');
  }
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  // The issuer is the address the browser uses, so the port is chosen before the portal is built.
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  portal = await createTestPortal({ PUBLIC_URL: origin });
  const { runtime } = portal;
  server = await buildApp({ ...runtime, ...(runtime.provider ? { provider: runtime.provider } : {}), logger: false });
  await server.listen({ port, host: '127.0.0.1' });
});

afterAll(async () => {
  await server?.close();
  await portal?.close();
});

async function signIn(browser: Browser, userName: string, password: string) {
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  const authorize = new URL('/oidc/auth', origin);
  authorize.search = new URLSearchParams({
    client_id: 'cfs-portal',
    response_type: 'code',
    redirect_uri: `${origin}/user/callback`,
    scope: 'openid profile email offline_access',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }).toString();
  const loginPageUrl = await browser.follow(await browser.go(authorize.toString()));
  const loginPage = await (await browser.go(loginPageUrl)).text();
  const action = /action="([^"]+)"/.exec(loginPage)?.[1];
  if (!action) throw new Error('No sign-in form');
  const submitted = await browser.go(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: userName, password }).toString(),
  });
  return { submitted, verifier, state, loginPage };
}

/** Signs in and exchanges the code: the tokens the browser holds, and the browser (its cookies hold the session). */
async function tokensFor(userName: string) {
  const browser = new Browser();
  const { submitted, verifier } = await signIn(browser, userName, userName);
  const code = new URL(await browser.follow(submitted)).searchParams.get('code') ?? '';
  const response = await fetch(`${origin}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'cfs-portal', code, redirect_uri: `${origin}/user/callback`, code_verifier: verifier }).toString(),
  });
  const tokens = (await response.json()) as { access_token: string; refresh_token: string; id_token: string };
  return { browser, tokens };
}

const api = (path: string, accessToken: string) => fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });

describe('sign-in records at rest', () => {
  it('hold no token, session id or grant id that could be presented', async () => {
    const { browser, tokens } = await tokensFor('admin');
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()) as { jti: string; gid: string };
    const sessionCookie = browser.cookie('_session') ?? '';
    expect(sessionCookie).not.toBe('');
    const { rows } = await sql<{ dump: string }>`SELECT string_agg(t::text, ' ') AS dump FROM oidc_payload t`.execute(portal.db);
    const dump = rows[0]?.dump ?? '';
    expect(dump.length).toBeGreaterThan(0);
    for (const secret of [tokens.refresh_token, claims.jti, claims.gid, sessionCookie]) expect(dump).not.toContain(secret);
    // And the records still work: the refresh token renews.
    const renewed = await fetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'cfs-portal', refresh_token: tokens.refresh_token }).toString(),
    });
    expect(renewed.status).toBe(200);
  });
});

describe('signing out ends the access token too', () => {
  it('refuses the access token on the next request once the session is ended at the provider', async () => {
    const { browser, tokens } = await tokensFor('operator');
    expect((await api('/v1/permissions', tokens.access_token)).status).toBe(200);
    expect((await api('/v1/permissions', tokens.access_token)).status).toBe(200);
    // RP-initiated logout, as the portal's Logout does: the provider's page posts its form.
    const logout = await browser.go(`/oidc/session/end?client_id=cfs-portal&id_token_hint=${tokens.id_token}`);
    const page = await logout.text();
    const action = /action="([^"]+)"/.exec(page)?.[1] ?? '';
    const fields = Object.fromEntries([...page.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((match) => [match[1], match[2]]));
    const ended = await browser.go(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...fields, logout: 'yes' }).toString() });
    expect(ended.status).toBeLessThan(400);
    const after = await api('/v1/permissions', tokens.access_token);
    expect(after.status).toBe(401);
  });

  it('refuses the access token once its refresh token is revoked', async () => {
    const { tokens } = await tokensFor('admin');
    expect((await api('/v1/currentUser', tokens.access_token)).status).toBe(200);
    const revoked = await fetch(`${origin}/oidc/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: 'cfs-portal' }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await api('/v1/currentUser', tokens.access_token)).status).toBe(401);
  });
});

describe('embedded identity provider', () => {
  it('publishes its discovery document with the endpoints under /oidc', async () => {
    const response = await fetch(`${origin}/oidc/.well-known/openid-configuration`);
    const discovery = (await response.json()) as Record<string, unknown>;
    expect(discovery.issuer).toBe(`${origin}/oidc`);
    expect(discovery.token_endpoint).toBe(`${origin}/oidc/token`);
    expect(discovery.code_challenge_methods_supported).toContain('S256');
  });

  it('shows its own sign-in page, loading nothing from the internet, with the demo notice', async () => {
    const { loginPage } = await signIn(new Browser(), 'nobody', 'x');
    expect(loginPage).toContain('Sign in');
    expect(loginPage).toContain('each password equals the user name');
    expect(loginPage).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('rejects a wrong password on the sign-in page', async () => {
    const { submitted } = await signIn(new Browser(), 'operator', 'wrong');
    expect(submitted.status).toBe(401);
    expect(await submitted.text()).toContain('The user name or password is not correct.');
  });

  it('signs in with code + PKCE, issues a JWT access token the API accepts, and renews it with the refresh token', async () => {
    const browser = new Browser();
    const { submitted, verifier, state } = await signIn(browser, 'operator', 'operator');
    const callback = new URL(await browser.follow(submitted));
    expect(callback.searchParams.get('state')).toBe(state);
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();

    const tokenResponse = await fetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'cfs-portal', code: code ?? '', redirect_uri: `${origin}/user/callback`, code_verifier: verifier }).toString(),
    });
    const tokens = (await tokenResponse.json()) as { access_token: string; refresh_token?: string; id_token?: string };
    expect(tokenResponse.status).toBe(200);
    expect(tokens.access_token.split('.')).toHaveLength(3);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.id_token).toBeTruthy();

    const me = await fetch(`${origin}/v1/currentUser`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { userName: string }).userName).toBe('operator');

    const renewed = await fetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'cfs-portal', refresh_token: tokens.refresh_token ?? '' }).toString(),
    });
    expect(renewed.status).toBe(200);
    const renewedTokens = (await renewed.json()) as { access_token: string };
    const again = await fetch(`${origin}/v1/permissions`, { headers: { authorization: `Bearer ${renewedTokens.access_token}` } });
    expect(again.status).toBe(200);
  });

  it('refuses a code exchange without the PKCE verifier', async () => {
    const browser = new Browser();
    const { submitted } = await signIn(browser, 'admin', 'admin');
    const code = new URL(await browser.follow(submitted)).searchParams.get('code') ?? '';
    const response = await fetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'cfs-portal', code, redirect_uri: `${origin}/user/callback` }).toString(),
    });
    expect(response.status).toBe(400);
  });

  it('serves as the external identity provider of another portal (discovery, keys, roles, tenants and groups claims)', async () => {
    const browser = new Browser();
    const { submitted, verifier } = await signIn(browser, 'operator', 'operator');
    const code = new URL(await browser.follow(submitted)).searchParams.get('code') ?? '';
    const tokenResponse = await fetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'cfs-portal', code, redirect_uri: `${origin}/user/callback`, code_verifier: verifier }).toString(),
    });
    const { access_token } = (await tokenResponse.json()) as { access_token: string };
    const other = await createTestPortal({ OIDC_AUTHORITY: `${origin}/oidc`, OIDC_CLIENT_ID: 'cfs-portal', OIDC_AUDIENCE: portal.config.oidc.audience });
    try {
      const call = (url: string) => other.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${access_token}` } });
      const me = await call('/v1/currentUser');
      expect(me.statusCode).toBe(200);
      // The other portal has no record of the operator's groups: they come from the token's groups claim.
      expect(me.json()).toMatchObject({ userName: 'operator', name: 'Oscar Operator', groups: ['Service Desk'] });
      const permissions = (await call('/v1/permissions')).json<string[]>();
      expect(permissions).toContain('CFS.Devices:edit');
      expect(permissions).not.toContain('CFS.Tenants:view');
      const tenants = (await call('/api/generallookup/tenants')).json<{ name: string }[]>();
      expect(tenants.map((tenant) => tenant.name)).toEqual(['Contoso']);
      const config = (await other.app.inject({ method: 'GET', url: '/api/generalLookup/oidcclientconfig' })).json();
      expect(config).toMatchObject({ authority: `${origin}/oidc`, clientId: 'cfs-portal' });
      const forged = await other.app.inject({ method: 'GET', url: '/v1/currentUser', headers: { authorization: `Bearer ${await portal.token('admin')}x` } });
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
