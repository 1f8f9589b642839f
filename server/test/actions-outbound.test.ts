import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  configureOutbound,
  MAX_RESPONSE_BYTES,
  OutboundNetworkError,
  sendOutbound,
} from '../src/engines/actions/outbound.js';
import {
  endpointRefusal,
  forbiddenAddressReason,
  NOTHING_ALLOWED,
  OutboundRefused,
  parseOutboundAllow,
} from '@cfs/contracts/outbound-guard';
import { REFUSED_URLS } from './outbound-spellings.js';

describe('the guard', () => {
  test.each(REFUSED_URLS)('%s is refused', async (url) => {
    expect(await endpointRefusal(NOTHING_ALLOWED, url)).toMatch(/not allowed/);
  });

  test('refuses at least thirty spellings', () => {
    expect(REFUSED_URLS.length).toBeGreaterThanOrEqual(30);
  });

  test.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    '%s is a public address',
    (address) => {
      expect(forbiddenAddressReason(address)).toBeUndefined();
    },
  );

  test('a name that resolves to loopback is refused, with its trailing dot too', async () => {
    expect(await endpointRefusal(NOTHING_ALLOWED, 'http://localhost:8080/hook')).toMatch(/localhost resolves to/);
    expect(await endpointRefusal(NOTHING_ALLOWED, 'http://LOCALHOST./hook')).toMatch(/resolves to/);
  });

  test('a host made of placeholders is judged when the action runs, a path placeholder does not hide the host', async () => {
    expect(await endpointRefusal(NOTHING_ALLOWED, 'https://{Host}/hook')).toBeUndefined();
    expect(await endpointRefusal(NOTHING_ALLOWED, 'http://127.0.0.1/{Path}?q={Q}')).toMatch(/not allowed/);
  });

  test('OUTBOUND_ALLOW lets listed hosts, ports and ranges through', async () => {
    const allow = parseOutboundAllow('127.0.0.1:9000, localhost, 10.1.0.0/16, [::1]:8080');
    expect(await endpointRefusal(allow, 'http://127.0.0.1:9000/')).toBeUndefined();
    expect(await endpointRefusal(allow, 'http://127.0.0.1:9001/')).toMatch(/not allowed/);
    expect(await endpointRefusal(allow, 'http://localhost:1234/')).toBeUndefined();
    expect(await endpointRefusal(allow, 'http://10.1.2.3/')).toBeUndefined();
    expect(await endpointRefusal(allow, 'http://10.2.0.1/')).toMatch(/not allowed/);
    expect(await endpointRefusal(allow, 'http://[::1]:8080/')).toBeUndefined();
    expect(() => parseOutboundAllow('10.0.0.0/99x')).toThrow();
  });
});

describe('the client', () => {
  let server: http.Server;
  let port: number;
  const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      seen.push({ url: request.url ?? '', headers: request.headers });
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/redirect') {
        response.writeHead(302, { location: url.searchParams.get('to') ?? '/ok' }).end();
      } else if (url.pathname === '/loop') {
        response.writeHead(307, { location: '/loop' }).end();
      } else if (url.pathname === '/big') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 4 * MAX_RESPONSE_BYTES) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        pump();
      } else if (url.pathname === '/slow') {
        setTimeout(() => response.end('late'), 3000);
      } else {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ method: request.method, path: url.pathname }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => configureOutbound({ allow: NOTHING_ALLOWED, totalTimeoutMs: 15_000 }));
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const allowLocal = () => configureOutbound({ allow: parseOutboundAllow(`127.0.0.1:${port}`) });

  test('refuses loopback unless allowed, at connect time', async () => {
    await expect(
      sendOutbound({ method: 'GET', url: `http://127.0.0.1:${port}/ok`, headers: {}, body: null }),
    ).rejects.toBeInstanceOf(OutboundRefused);
    await expect(
      sendOutbound({ method: 'GET', url: `http://localhost:${port}/ok`, headers: {}, body: null }),
    ).rejects.toBeInstanceOf(OutboundRefused);
    allowLocal();
    const answer = await sendOutbound({ method: 'GET', url: `http://127.0.0.1:${port}/ok`, headers: {}, body: null });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ method: 'GET', path: '/ok' });
  });

  test('follows redirects by hand and judges every hop', async () => {
    allowLocal();
    const followed = await sendOutbound({
      method: 'POST',
      url: `http://127.0.0.1:${port}/redirect?to=/ok`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(followed.status).toBe(200);
    expect(JSON.parse(followed.body)).toEqual({ method: 'GET', path: '/ok' });
    for (const target of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://2130706433/',
      'http://10.0.0.1/',
    ]) {
      await expect(
        sendOutbound({
          method: 'GET',
          url: `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(target)}`,
          headers: {},
          body: null,
        }),
      ).rejects.toBeInstanceOf(OutboundRefused);
    }
    await expect(
      sendOutbound({
        method: 'GET',
        url: `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`,
        headers: {},
        body: null,
      }),
    ).rejects.toBeInstanceOf(OutboundRefused);
    await expect(
      sendOutbound({ method: 'GET', url: `http://127.0.0.1:${port}/loop`, headers: {}, body: null }),
    ).rejects.toThrow(/More than 5 redirects/);
  });

  test('reads at most the cap of a large answer', async () => {
    allowLocal();
    const answer = await sendOutbound({ method: 'GET', url: `http://127.0.0.1:${port}/big`, headers: {}, body: null });
    expect(answer.truncated).toBe(true);
    expect(answer.body.length).toBe(MAX_RESPONSE_BYTES);
  });

  test('gives up after the total timeout', async () => {
    configureOutbound({ allow: parseOutboundAllow(`127.0.0.1:${port}`), totalTimeoutMs: 300 });
    await expect(
      sendOutbound({ method: 'GET', url: `http://127.0.0.1:${port}/slow`, headers: {}, body: null }),
    ).rejects.toBeInstanceOf(OutboundNetworkError);
  });

  test('a connection refused is a network error', async () => {
    configureOutbound({ allow: parseOutboundAllow('127.0.0.1') });
    await expect(
      sendOutbound({ method: 'GET', url: 'http://127.0.0.1:1/', headers: {}, body: null }),
    ).rejects.toBeInstanceOf(OutboundNetworkError);
  });
});

describe('TLS', () => {
  test('certificates are still verified against the name when the connection goes to the judged address', async () => {
    const fixtures = path.join(import.meta.dirname, 'fixtures');
    // A self-signed certificate for localhost and 127.0.0.1: no trusted authority signed it.
    const server = https.createServer(
      {
        key: await fs.readFile(path.join(fixtures, 'outbound-tls.key')),
        cert: await fs.readFile(path.join(fixtures, 'outbound-tls.crt')),
      },
      (_request, response) => response.end('secret'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      configureOutbound({ allow: parseOutboundAllow(`localhost:${port}`) });
      const refused = sendOutbound({ method: 'GET', url: `https://localhost:${port}/`, headers: {}, body: null });
      await expect(refused).rejects.toBeInstanceOf(OutboundNetworkError);
      await expect(refused).rejects.toThrow(/certificate/i);
    } finally {
      configureOutbound({ allow: NOTHING_ALLOWED });
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
