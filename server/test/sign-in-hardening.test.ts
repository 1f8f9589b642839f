import net from 'node:net';
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
    const stream = new Writable({
      write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString()), done()),
    });
    const { runtime } = portal;
    const app = await buildApp({
      ...runtime,
      ...(runtime.provider ? { provider: runtime.provider } : {}),
      logger: { level: 'info', stream, serializers: requestLogSerializers },
    });
    await app.inject({
      method: 'GET',
      url: '/user/callback?code=SECRET-CODE&state=s1',
      headers: { host: 'portal.test' },
    });
    await app.inject({
      method: 'GET',
      url: '/oidc/session/end?id_token_hint=SECRET-HINT&client_id=cfs-portal',
      headers: { host: 'portal.test' },
    });
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
    const response = await portal.app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
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
    const other = await portal.app.inject({
      method: 'GET',
      url: '/workunitsv2?workUnitId=5',
      headers: { host: '127.0.0.1:8080' },
    });
    expect(other.statusCode).toBe(302);
    expect(other.headers.location).toBe('http://portal.test/workunitsv2?workUnitId=5');
    const same = await portal.app.inject({ method: 'GET', url: '/workunitsv2', headers: { host: 'portal.test' } });
    expect(same.statusCode).not.toBe(302);
    // The API answers at any address (scripts, health checks).
    expect(
      (await portal.app.inject({ method: 'GET', url: '/healthz', headers: { host: '127.0.0.1:8080' } })).statusCode,
    ).toBe(200);
  });
});

/** Sends one request with the exact request target given (no client tidies it) and answers status and Location. */
async function rawGet(
  port: number,
  target: string,
  host: string,
): Promise<{ status: number; location: string | undefined }> {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const [head = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...headers] = head.split('\r\n');
  const location = headers
    .find((line) => line.toLowerCase().startsWith('location:'))
    ?.slice('location:'.length)
    .trim();
  return { status: Number(statusLine.split(' ')[1]), location };
}

describe('redirects', () => {
  const offPortal = [
    '//evil.example/login',
    '/\\evil.example/login',
    '/%2F%2Fevil.example/login',
    '/\\\\evil.example/login',
    '/%5C%5Cevil.example/login',
    '///evil.example/login',
    '//evil.example',
    '/\\evil.example/',
    '//evil.example/login?next=//evil.example',
  ];
  const elsewhere = [
    '/docs',
    '/docs//evil.example',
    '/docs/\\evil.example',
    '/assets//evil.example/',
    '/assets',
    '/downloads//evil.example',
    '/oidc//evil.example',
    '/workunitsv2//evil.example/',
    '/http://evil.example/',
  ];

  test('lead only to a path on PUBLIC_URL, however the path spells another host', async () => {
    await portal.app.listen({ port: 0, host: '127.0.0.1' });
    const address = portal.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    for (const host of ['127.0.0.1:8080', 'portal.test']) {
      for (const target of [...offPortal, ...elsewhere]) {
        const { status, location } = await rawGet(address.port, target, host);
        expect(status, `${host} ${target}`).toBeGreaterThan(0);
        if (location === undefined) continue;
        // Resolved as a browser resolves it: relative to the address it asked for.
        const landing = new URL(location, `http://${host}${target}`);
        expect([host, 'portal.test'], `${host} ${target} → ${location}`).toContain(landing.host);
      }
    }
    const spelled = await rawGet(address.port, '//evil.example/login', '127.0.0.1:8080');
    expect(spelled).toEqual({ status: 302, location: 'http://portal.test//evil.example/login' });
    expect((await rawGet(address.port, '/\\evil.example/login?a=1', '127.0.0.1:8080')).location).toBe(
      'http://portal.test//evil.example/login?a=1',
    );
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
