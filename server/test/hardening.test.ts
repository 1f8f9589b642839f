import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createTestPortal, type TestPortal } from './harness.js';

/** The sign-in form allows 30 attempts a minute per client; which client is asked of TRUST_PROXY. */
async function attemptsUntilRefused(portal: TestPortal): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) {
    const response = await portal.app.inject({
      method: 'POST',
      url: '/oidc/interaction/no-such-interaction/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `203.0.113.${i}` },
      payload: 'username=admin&password=guess',
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('sign-in rate limit and proxies', () => {
  let direct: TestPortal;
  let proxied: TestPortal;
  beforeAll(async () => {
    direct = await createTestPortal();
    proxied = await createTestPortal({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  it('counts attempts per connection by default, whatever X-Forwarded-For claims', async () => {
    const statuses = await attemptsUntilRefused(direct);
    expect(statuses.at(-1)).toBe(429);
  });

  it('believes X-Forwarded-For only when TRUST_PROXY says a proxy is in front', async () => {
    const statuses = await attemptsUntilRefused(proxied);
    expect(statuses).not.toContain(429);
  });
});

describe('configuration defaults', () => {
  it('seeds demo accounts on the embedded database only, unless DEMO_SEED says otherwise', () => {
    expect(loadConfig({}).demoSeed).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.internal/portal' }).demoSeed).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.internal/portal', DEMO_SEED: 'true' }).demoSeed).toBe(true);
    expect(loadConfig({ DEMO_SEED: 'false' }).demoSeed).toBe(false);
  });

  it('trusts no proxy unless told', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.4' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.4']);
  });
});

describe('security headers', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await createTestPortal();
  });
  afterAll(() => portal?.close());

  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(String(headers['content-security-policy'])).toContain("default-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
  };

  it('send Strict-Transport-Security only on answers over HTTPS: a trusted proxy’s X-Forwarded-Proto https, never plain HTTP', async () => {
    const proxied = await createTestPortal({ TRUST_PROXY: 'true' });
    try {
      for (const url of ['/healthz', '/v1/tenants', '/oidc/.well-known/openid-configuration', '/workunitsv2']) {
        const overHttps = await proxied.app.inject({
          method: 'GET',
          url,
          headers: { host: 'portal.test', 'x-forwarded-proto': 'https' },
        });
        expect(overHttps.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
        const plain = await proxied.app.inject({ method: 'GET', url, headers: { host: 'portal.test' } });
        expect(plain.headers['strict-transport-security'], url).toBeUndefined();
        expect(plain.headers['x-content-type-options'], url).toBe('nosniff');
        // Without a trusted proxy, anyone could claim HTTPS: the connection's own protocol decides.
        const claimed = await portal.app.inject({
          method: 'GET',
          url,
          headers: { host: 'portal.test', 'x-forwarded-proto': 'https' },
        });
        expect(claimed.headers['strict-transport-security'], url).toBeUndefined();
      }
    } finally {
      await proxied.close();
    }
  });

  it('are on every answer: a public one, a refusal before sign-in, a signed-in list', async () => {
    const health = await portal.app.inject({ method: 'GET', url: '/healthz' });
    expectSecurityHeaders(health.headers);
    const refused = await portal.app.inject({ method: 'GET', url: '/v1/tenants' });
    expect(refused.statusCode).toBe(401);
    expectSecurityHeaders(refused.headers);
    const forbidden = await portal.as('enduser', { method: 'GET', url: '/v1/tenants' });
    expect(forbidden.statusCode).toBe(403);
    expectSecurityHeaders(forbidden.headers);
    const list = await portal.as('admin', { method: 'GET', url: '/v1/tenants?$count=true&$top=1&$orderby=name' });
    expect(list.statusCode).toBe(200);
    expectSecurityHeaders(list.headers);
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = list.json<{ '@odata.count': number; value: { name: string }[] }>();
    expect(body.value).toHaveLength(1);
    expect(body['@odata.count']).toBeGreaterThanOrEqual(2);
  });
});

describe('compression', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await createTestPortal();
  });
  afterAll(() => portal?.close());

  it('sends answers over 1 KB compressed to a client that accepts it, and plain to one that does not', async () => {
    const url = '/v1/workunits?$top=50&$count=true';
    const plain = await portal.as('admin', { method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const zipped = await portal.as('admin', { method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json());
    const small = await portal.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
