import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_TYPES } from '@cfs/contracts/fleet';
import type { HostMetrics } from './host-metrics.js';
import { outboundPolicy } from './http-check.js';
import { runOperation } from './operations.js';
import { resolveParameters, securedValues, withoutSecrets } from './parameters.js';

let server: http.Server;
let base: string;
const seenBodies: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seenBodies.push(body);
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      const url = request.url ?? '';
      if (url === '/ok') return json(200, { status: 'ok' });
      if (url === '/down') return json(503, { status: 'down' });
      if (url === '/api') return json(200, { queue: { depth: 42, name: 'orders' } });
      if (url === '/session' && request.method === 'POST') return json(200, { sessionId: 'abc123' });
      if (url === '/orders?session=abc123') return json(200, { orders: [] });
      if (url === '/issuer/.well-known/openid-configuration') return json(200, { token_endpoint: `${base}/token` });
      if (url === '/token') {
        const form = new URLSearchParams(body);
        const good = form.get('grant_type') === 'password' ? form.get('password') === 'right' : form.get('client_secret') === 'right';
        return good ? json(200, { access_token: 'at', token_type: 'Bearer' }) : json(400, { error: 'invalid_grant' });
      }
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const metrics = { sample: async () => ({ cpuPercent: 12.5, memoryPercent: 40 }), disk: async () => 70 } as unknown as HostMetrics;
// The test endpoint stands for the agent's portal, which its operations may always call.
const context = () => ({ metrics, outbound: outboundPolicy(base, '127.0.0.1:1') });
const run = (type: number, parameters: Record<string, string>) => runOperation(type, new Map(Object.entries(parameters)), context());

describe('Availability', () => {
  it('passes when the address answers 2xx or 3xx, and fails on 5xx or no answer', async () => {
    const up = await run(OPERATION_TYPES.Availability, { Url: `${base}/ok`, Method: 'GET' });
    expect(up).toMatchObject({ ok: true, value: 1, metrics: { StatusCode: 200 } });
    expect(up.detail).toMatch(/answered 200/);
    expect(await run(OPERATION_TYPES.Availability, { Url: `${base}/down` })).toMatchObject({ ok: false, value: 0 });
    expect(await run(OPERATION_TYPES.Availability, { Url: 'http://127.0.0.1:1/', TimeoutSeconds: '2' })).toMatchObject({ ok: false, value: 0 });
  });

  it('checks a TCP port', async () => {
    const port = (server.address() as AddressInfo).port;
    expect(await run(OPERATION_TYPES.Availability, { Url: `tcp://127.0.0.1:${port}` })).toMatchObject({ ok: true, value: 1 });
    expect(await run(OPERATION_TYPES.Availability, { Host: '127.0.0.1', Port: '1' })).toMatchObject({ ok: false, value: 0 });
  });

  it('calls the portal and what the machine allows, and refuses other internal addresses before connecting', async () => {
    const port = (server.address() as AddressInfo).port;
    const refused = await run(OPERATION_TYPES.Availability, { Url: `http://127.0.0.2:${port}/ok` });
    expect(refused).toMatchObject({ ok: false, value: 0 });
    expect(refused.detail).toMatch(/not allowed: 127\.0\.0\.2 is a loopback/);
    expect((await run(OPERATION_TYPES.Availability, { Host: '169.254.169.254', Port: '80' })).detail).toMatch(/not allowed/);
    const allowed = await runOperation(OPERATION_TYPES.Availability, new Map([['Url', `http://localhost:${port}/ok`]]), { metrics, outbound: outboundPolicy('https://portal.example', `localhost:${port}`) });
    expect(allowed).toMatchObject({ ok: true, value: 1 });
  });
});

describe('ApiRead', () => {
  it('reads a number at a JSON path', async () => {
    expect(await run(OPERATION_TYPES.ApiRead, { Url: `${base}/api`, JsonPath: '$.queue.depth' })).toMatchObject({ ok: true, value: 42 });
    expect(await run(OPERATION_TYPES.ApiRead, { Url: `${base}/api`, JsonPath: '$.queue.name' })).toMatchObject({ ok: true, value: 'orders' });
    expect(await run(OPERATION_TYPES.ApiRead, { Url: `${base}/api`, JsonPath: '$.nothing' })).toMatchObject({ ok: false });
  });

  it('fails, without crashing, when a parameter is missing', async () => {
    expect(await run(OPERATION_TYPES.ApiRead, {})).toEqual({ ok: false, value: '', detail: 'The parameter Url is missing', metrics: {} });
  });
});

describe('LocalFileRead', () => {
  it('reads a file whole, by pattern or at a JSON path', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-file-'));
    const text = path.join(dir, 'status.txt');
    fs.writeFileSync(text, 'version=4.2\nqueue=17\n');
    const json = path.join(dir, 'status.json');
    fs.writeFileSync(json, JSON.stringify({ backup: { ageHours: 3 } }));
    expect(await run(OPERATION_TYPES.LocalFileRead, { Path: text, Pattern: 'queue=(\\d+)' })).toMatchObject({ ok: true, value: 17 });
    expect(await run(OPERATION_TYPES.LocalFileRead, { Path: json, JsonPath: '$.backup.ageHours' })).toMatchObject({ ok: true, value: 3 });
    expect(await run(OPERATION_TYPES.LocalFileRead, { Path: text })).toMatchObject({ ok: true, value: 'version=4.2\nqueue=17' });
    expect(await run(OPERATION_TYPES.LocalFileRead, { Path: path.join(dir, 'missing') })).toMatchObject({ ok: false });
    fs.rmSync(dir, { recursive: true });
  });
});

describe('Synthetic', () => {
  it('runs the steps in order, carrying a value from one step to the next', async () => {
    const steps = [
      { Name: 'Sign in', Method: 'POST', Url: `${base}/session`, Body: { user: 'probe' }, Extract: { session: '$.sessionId' } },
      { Name: 'List orders', Url: `${base}/orders?session=\${session}`, ExpectText: 'orders' },
    ];
    const result = await run(OPERATION_TYPES.Synthetic, { Steps: JSON.stringify(steps) });
    expect(result).toMatchObject({ ok: true, metrics: { Steps: 2 } });
    expect(result.detail).toContain('List orders: GET');
  });

  it('stops at the first step that fails', async () => {
    const steps = [{ Url: `${base}/down` }, { Url: `${base}/ok` }];
    const result = await run(OPERATION_TYPES.Synthetic, { Steps: JSON.stringify(steps) });
    expect(result).toMatchObject({ ok: false, metrics: { Steps: 0 } });
    expect(result.detail.split('\n')).toHaveLength(1);
  });
});

describe('Authentication', () => {
  it('logs in with the password grant through OIDC discovery, and fails with a wrong password without logging it', async () => {
    const good = await run(OPERATION_TYPES.Authentication, { Url: `${base}/issuer/.well-known/openid-configuration`, Username: 'probe', Password: 'right', ClientId: 'portal' });
    expect(good.ok).toBe(true);
    expect(good.detail).toMatch(/with an access token/);
    const bad = await run(OPERATION_TYPES.Authentication, { Url: `${base}/token`, Username: 'probe', Password: 'wrong-secret' });
    expect(bad).toMatchObject({ ok: false, metrics: { StatusCode: 400 } });
    expect(bad.detail).not.toContain('wrong-secret');
  });

  it('asks for client credentials when no user name is given', async () => {
    expect(await run(OPERATION_TYPES.Authentication, { Url: `${base}/token`, ClientId: 'probe', ClientSecret: 'right' })).toMatchObject({ ok: true });
  });
});

describe('Metric', () => {
  it('reports the CPU by default, memory or disk when asked', async () => {
    expect(await run(OPERATION_TYPES.Metric, {})).toMatchObject({ ok: true, value: 12.5, metrics: { CpuPercent: 12.5 } });
    expect(await run(OPERATION_TYPES.Metric, { Metric: 'Memory' })).toMatchObject({ value: 40 });
    expect(await run(OPERATION_TYPES.Metric, { Metric: 'Disk' })).toMatchObject({ value: 70 });
  });
});

describe('resolveParameters', () => {
  it('takes portal and secured values as sent, environment variables from this machine and runtime values from the agent', () => {
    const resolved = resolveParameters(
      [
        { name: 'Url', source: 'PortalEntry', value: 'https://x.test' },
        { name: 'Password', source: 'SecuredValue', value: 's3cret' },
        { name: 'Home', source: 'EnvironmentVariable', value: 'PROBE_HOME' },
        { name: 'Host', source: 'RuntimeConfig', value: 'MachineName' },
        { name: 'Odd', source: 'RuntimeConfig', value: 'constructor' },
      ],
      { MachineName: 'host-1', DeviceId: 'd', PortalUrl: 'p', DataDirectory: '/data' },
      { PROBE_HOME: '/home/probe' },
    );
    expect(Object.fromEntries(resolved)).toEqual({ Url: 'https://x.test', Password: 's3cret', Home: '/home/probe', Host: 'host-1', Odd: undefined });
  });
});

describe('secured values in what an operation reports', () => {
  it('are replaced by *** in its detail, as written and as they appear in an address', async () => {
    const secret = 's3cret key/42';
    const parameters = [
      { name: 'Url', source: 'PortalEntry' as const, value: `${base}/down?key=${encodeURIComponent(secret)}` },
      { name: 'Token', source: 'SecuredValue' as const, value: secret },
    ];
    const runtime = { MachineName: 'host', DeviceId: '', PortalUrl: base, DataDirectory: os.tmpdir() };
    const result = await runOperation(OPERATION_TYPES.Availability, resolveParameters(parameters, runtime), context());
    expect(result.detail).toContain(encodeURIComponent(secret));
    const shown = withoutSecrets(`${result.detail} (${secret})`, securedValues(parameters));
    expect(shown).not.toContain(encodeURIComponent(secret));
    expect(shown).not.toContain(secret);
    expect(shown).toContain('key=***');
  });
});
