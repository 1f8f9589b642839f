import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp, requestLogSerializers } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

describe('request logs', () => {
  test('carry no authorization code, ID token hint or other sign-in parameter', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString()), done()) });
    const { runtime } = portal;
    const app = await buildApp({ ...runtime, ...(runtime.provider ? { provider: runtime.provider } : {}), logger: { level: 'info', stream, serializers: requestLogSerializers } });
    await app.inject({ method: 'GET', url: '/user/callback?code=SECRET-CODE&state=s1', headers: { host: 'portal.test' } });
    await app.inject({ method: 'GET', url: '/oidc/session/end?id_token_hint=SECRET-HINT&client_id=cfs-portal', headers: { host: 'portal.test' } });
    await app.inject({ method: 'GET', url: '/v1/tenants?token=SECRET-TOKEN&$top=5', headers: { host: 'portal.test' } });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/user/callback?[redacted]');
    // One line per request.
    expect(lines.filter((line) => line.includes('"msg":"request"'))).toHaveLength(3);
    expect(log).toContain('/oidc/session/end');
    for (const secret of ['SECRET-CODE', 'SECRET-HINT', 'SECRET-TOKEN']) expect(log).not.toContain(secret);
  });
});

describe('addresses and caching', () => {
  test('derive every address of the provider from PUBLIC_URL, whatever Host or X-Forwarded-Host says', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration', headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
    const discovery = response.json<Record<string, string>>();
    for (const name of ['issuer', 'jwks_uri', 'authorization_endpoint', 'token_endpoint', 'end_session_endpoint']) {
      expect(discovery[name], name).toMatch(/^http:\/\/portal\.test\//);
    }
    expect(response.body).not.toContain('evil.example');
  });

  test('send signed-in answers and CSV downloads with Cache-Control: no-store', async () => {
    for (const url of ['/v1/tenants', '/v1/tenants/Export', '/v1/currentUser']) {
      const response = await portal.as('admin', { method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  test('send a page opened at another address to the same path at PUBLIC_URL', async () => {
    const other = await portal.app.inject({ method: 'GET', url: '/workunitsv2?workUnitId=5', headers: { host: '127.0.0.1:8080' } });
    expect(other.statusCode).toBe(302);
    expect(other.headers.location).toBe('http://portal.test/workunitsv2?workUnitId=5');
    const same = await portal.app.inject({ method: 'GET', url: '/workunitsv2', headers: { host: 'portal.test' } });
    expect(same.statusCode).not.toBe(302);
    // The API answers at any address (scripts, health checks).
    expect((await portal.app.inject({ method: 'GET', url: '/healthz', headers: { host: '127.0.0.1:8080' } })).statusCode).toBe(200);
  });
});

describe('a demo', () => {
  test('listens on this machine only unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.internal/portal' }).host).toBe('0.0.0.0');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.internal/portal', DEMO_SEED: 'true' }).host).toBe('127.0.0.1');
  });
});
