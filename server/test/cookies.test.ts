import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestPortal, type TestPortal } from './harness.js';

/** Each Set-Cookie of an answer: its name and its attributes, lower-cased. */
function setCookies(headers: Record<string, unknown>): { name: string; value: string; attributes: string[] }[] {
  const raw = headers['set-cookie'];
  const list = Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
  return list.map((cookie) => {
    const [pair = '', ...attributes] = cookie.split(';').map((part) => part.trim());
    const [name = '', ...value] = pair.split('=');
    return { name, value: value.join('='), attributes: attributes.map((attribute) => attribute.toLowerCase()) };
  });
}

/** Signs in through the embedded provider as a browser would, keeping every cookie it is given. */
async function signInCookies(portal: TestPortal) {
  const jar = new Map<string, { value: string; attributes: string[] }>();
  const send = async (method: 'GET' | 'POST', url: string, payload?: string) => {
    const target = new URL(url, portal.config.publicUrl);
    const response = await portal.app.inject({
      method,
      url: `${target.pathname}${target.search}`,
      headers: {
        host: target.host,
        cookie: [...jar].map(([name, { value }]) => `${name}=${value}`).join('; '),
        ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(payload ? { payload } : {}),
    });
    for (const cookie of setCookies(response.headers)) jar.set(cookie.name, cookie);
    return response;
  };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/oidc/auth', portal.config.publicUrl);
  authorize.search = new URLSearchParams({
    client_id: 'cfs-portal',
    response_type: 'code',
    redirect_uri: `${portal.config.publicUrl}/user/callback`,
    scope: 'openid profile email offline_access',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'x',
  }).toString();
  const toLogin = await send('GET', authorize.toString());
  const loginUrl = String(toLogin.headers.location);
  const page = await send('GET', loginUrl);
  const action = /action="([^"]+)"/.exec(page.body)?.[1] ?? '';
  let response = await send('POST', action, new URLSearchParams({ username: 'admin', password: 'admin' }).toString());
  for (
    let hops = 0;
    hops < 5 && response.headers.location && !String(response.headers.location).includes('/user/callback');
    hops++
  ) {
    response = await send('GET', String(response.headers.location));
  }
  expect(String(response.headers.location)).toContain('/user/callback?code=');
  return jar;
}

describe('sign-in cookies', () => {
  const portals: TestPortal[] = [];
  afterAll(async () => {
    for (const portal of portals) await portal.close();
  });

  it('over HTTPS: the session is a __Host- cookie (secure, path /, no domain) and the interaction cookies are __Secure-', async () => {
    const portal = await createTestPortal({ PUBLIC_URL: 'https://portal.test' });
    portals.push(portal);
    const jar = await signInCookies(portal);
    const session = jar.get('__Host-session');
    expect(session?.attributes).toEqual(expect.arrayContaining(['path=/', 'secure', 'httponly']));
    expect(session?.attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);
    const interaction = [...jar].filter(([name]) => name.startsWith('__Secure-interaction'));
    expect(interaction.length).toBeGreaterThan(0);
    for (const [, cookie] of interaction) expect(cookie.attributes).toContain('secure');
    expect([...jar.keys()].filter((name) => !name.startsWith('__Host-') && !name.startsWith('__Secure-'))).toEqual([]);
  });

  it('over plain HTTP (a local demo) the cookies keep their plain names, since browsers refuse prefixed cookies without HTTPS', async () => {
    const portal = await createTestPortal({ PUBLIC_URL: 'http://portal.test' });
    portals.push(portal);
    const jar = await signInCookies(portal);
    expect(jar.has('_session')).toBe(true);
    expect([...jar.keys()].some((name) => name.startsWith('__'))).toBe(false);
  });
});
