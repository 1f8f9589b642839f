import { createHash, randomBytes } from 'node:crypto';

/**
 * The embedded identity provider spoken to over HTTP as the browser speaks to it: authorization
 * code with PKCE through the portal's sign-in page, the token endpoint, refresh, revocation and
 * RP-initiated logout. For tests that need the real sign-in's tokens, not minted ones.
 *
 * @example
 * const { browser, tokens } = await tokensFor(origin, 'operator');
 * await fetch(`${origin}/v1/currentUser`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
 * await endSession(browser, tokens.id_token);
 */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size)
      headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(new URL(url, this.origin), { ...init, headers, redirect: 'manual' });
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
      const next = new URL(location, this.origin);
      if (next.pathname === '/user/callback') return next.toString();
      current = await this.go(next.toString());
      if (current.status === 200) return next.toString();
    }
    throw new Error('Too many redirects');
  }
}

export interface SignInTokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/**
 * Opens the authorization request and submits the sign-in form; the answer to the form, the PKCE
 * verifier and the state. `prompt` adds that parameter (`consent` with offline_access asks for an
 * offline grant, which the provider ignores without it).
 */
export async function signIn(origin: string, browser: Browser, userName: string, password: string, prompt?: string) {
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
    ...(prompt ? { prompt } : {}),
  }).toString();
  const loginPageUrl = await browser.follow(await browser.go(authorize.toString()));
  const loginPage = await (await browser.go(loginPageUrl)).text();
  const action = /action="([^"]+)"/.exec(loginPage)?.[1];
  if (!action) throw new Error('No sign-in form');
  const submitted = await browser.go(action, form({ username: userName, password }));
  return { submitted, verifier, state, loginPage };
}

/** Signs in (the password is the user name unless given) and exchanges the code: the tokens the browser holds, and the browser (its cookies hold the session). */
export async function tokensFor(origin: string, userName: string, password = userName, prompt?: string) {
  const browser = new Browser(origin);
  const { submitted, verifier } = await signIn(origin, browser, userName, password, prompt);
  const code = new URL(await browser.follow(submitted)).searchParams.get('code') ?? '';
  const response = await exchangeCode(origin, code, verifier);
  if (response.status !== 200) throw new Error(`Code exchange: ${response.status} ${await response.text()}`);
  const tokens = (await response.json()) as SignInTokens;
  return { browser, tokens };
}

/** The browser's exchange of an authorization code for tokens, with the PKCE verifier unless none is given. */
export async function exchangeCode(origin: string, code: string, verifier?: string): Promise<Response> {
  return fetch(
    `${origin}/oidc/token`,
    form({
      grant_type: 'authorization_code',
      client_id: 'cfs-portal',
      code,
      redirect_uri: `${origin}/user/callback`,
      ...(verifier === undefined ? {} : { code_verifier: verifier }),
    }),
  );
}

/** The silent renewal's request: a new access token for a refresh token. */
export async function refresh(origin: string, refreshToken: string): Promise<Response> {
  return fetch(
    `${origin}/oidc/token`,
    form({ grant_type: 'refresh_token', client_id: 'cfs-portal', refresh_token: refreshToken }),
  );
}

/** Revokes a refresh token at the provider, as the portal's sign-out does. */
export async function revokeRefreshToken(origin: string, refreshToken: string): Promise<Response> {
  return fetch(
    `${origin}/oidc/token/revocation`,
    form({ token: refreshToken, token_type_hint: 'refresh_token', client_id: 'cfs-portal' }),
  );
}

/** RP-initiated logout, as the portal's Logout does: the provider's page posts its form. */
export async function endSession(browser: Browser, idToken: string): Promise<Response> {
  const logout = await browser.go(`/oidc/session/end?client_id=cfs-portal&id_token_hint=${idToken}`);
  const page = await logout.text();
  const action = /action="([^"]+)"/.exec(page)?.[1] ?? '';
  const fields = Object.fromEntries(
    [...page.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((match) => [
      match[1] ?? '',
      match[2] ?? '',
    ]),
  );
  return browser.go(action, form({ ...fields, logout: 'yes' }));
}
