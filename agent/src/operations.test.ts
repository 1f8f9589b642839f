import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import si from 'systeminformation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_TYPES } from '@cfs/contracts/fleet';
import { diskOf, HostMetrics } from './host-metrics.js';
import { outboundPolicy } from './http-check.js';
import { runOperation } from './operations.js';
import { resolveParameters, securedValues, withoutSecrets } from './parameters.js';
import { readPolicy, type ReadPolicy } from './read-allow.js';

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
        const good =
          form.get('grant_type') === 'password'
            ? form.get('password') === 'right'
            : form.get('client_secret') === 'right';
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

const metrics = {
  sample: async () => ({ cpuPercent: 12.5, memoryPercent: 40 }),
  disk: async (where?: string) => ({
    mount: where ?? '/',
    usedPercent: 70,
    freePercent: 30,
    freeBytes: 30 * 1024 ** 3,
    sizeBytes: 100 * 1024 ** 3,
  }),
} as unknown as HostMetrics;
// The test endpoint stands for the agent's portal, which its operations may always call.
// Operations other than LocalFileRead read no file: this agent may read nothing but an empty data folder.
const noFiles = readPolicy(path.join(os.tmpdir(), 'cfs-agent-no-data'), '');
const context = (files: ReadPolicy = noFiles) => ({ metrics, outbound: outboundPolicy(base, '127.0.0.1:1'), files });
const run = (type: number, parameters: Record<string, string>) =>
  runOperation(type, new Map(Object.entries(parameters)), context());

describe('Availability', () => {
  it('passes when the address answers 2xx or 3xx, and fails on 5xx or no answer', async () => {
    const up = await run(OPERATION_TYPES.Availability, { Url: `${base}/ok`, Method: 'GET' });
    expect(up).toMatchObject({ ok: true, value: 1, metrics: { StatusCode: 200 } });
    expect(up.detail).toMatch(/answered 200/);
    expect(await run(OPERATION_TYPES.Availability, { Url: `${base}/down` })).toMatchObject({ ok: false, value: 0 });
    expect(await run(OPERATION_TYPES.Availability, { Url: 'http://127.0.0.1:1/', TimeoutSeconds: '2' })).toMatchObject({
      ok: false,
      value: 0,
    });
  });

  it('checks a TCP port', async () => {
    const port = (server.address() as AddressInfo).port;
    expect(await run(OPERATION_TYPES.Availability, { Url: `tcp://127.0.0.1:${port}` })).toMatchObject({
      ok: true,
      value: 1,
    });
    expect(await run(OPERATION_TYPES.Availability, { Host: '127.0.0.1', Port: '1' })).toMatchObject({
      ok: false,
      value: 0,
    });
  });

  it('calls the portal and what the machine allows, and refuses other internal addresses before connecting', async () => {
    const port = (server.address() as AddressInfo).port;
    const refused = await run(OPERATION_TYPES.Availability, { Url: `http://127.0.0.2:${port}/ok` });
    expect(refused).toMatchObject({ ok: false, value: 0 });
    expect(refused.detail).toMatch(/not allowed: 127\.0\.0\.2 is a loopback/);
    expect((await run(OPERATION_TYPES.Availability, { Host: '169.254.169.254', Port: '80' })).detail).toMatch(
      /not allowed/,
    );
    const allowed = await runOperation(
      OPERATION_TYPES.Availability,
      new Map([['Url', `http://localhost:${port}/ok`]]),
      { metrics, outbound: outboundPolicy('https://portal.example', `localhost:${port}`), files: noFiles },
    );
    expect(allowed).toMatchObject({ ok: true, value: 1 });
  });
});

describe('ApiRead', () => {
  it('reads a number at a JSON path', async () => {
    expect(await run(OPERATION_TYPES.ApiRead, { Url: `${base}/api`, JsonPath: '$.queue.depth' })).toMatchObject({
      ok: true,
      value: 42,
    });
    expect(await run(OPERATION_TYPES.ApiRead, { Url: `${base}/api`, JsonPath: '$.queue.name' })).toMatchObject({
      ok: true,
      value: 'orders',
    });
    expect(await run(OPERATION_TYPES.ApiRead, { Url: `${base}/api`, JsonPath: '$.nothing' })).toMatchObject({
      ok: false,
    });
  });

  it('fails, without crashing, when a parameter is missing', async () => {
    expect(await run(OPERATION_TYPES.ApiRead, {})).toEqual({
      ok: false,
      value: '',
      detail: 'The parameter Url is missing',
      metrics: {},
    });
  });
});

describe('LocalFileRead', () => {
  // A machine: the agent's data folder, a folder its owner allowed (--read-allow), and one it did not.
  let machine: string;
  let dataDir: string;
  let allowed: string;
  let outside: string;
  let files: ReadPolicy;
  const read = (parameters: Record<string, string>) =>
    runOperation(OPERATION_TYPES.LocalFileRead, new Map(Object.entries(parameters)), context(files));
  beforeAll(() => {
    machine = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-file-')));
    dataDir = path.join(machine, 'agent-data');
    allowed = path.join(machine, 'app', 'status');
    outside = path.join(machine, 'portal', 'keys');
    for (const folder of [dataDir, allowed, outside]) fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(outside, 'secrets.key'), 'the portal key');
    files = readPolicy(dataDir, `${allowed},${path.join(machine, 'not-there')}`);
  });
  afterAll(() => fs.rmSync(machine, { recursive: true, force: true }));

  it('reads a file of an allowed folder whole, by pattern or at a JSON path', async () => {
    const text = path.join(allowed, 'status.txt');
    fs.writeFileSync(text, 'version=4.2\nqueue=17\n');
    const json = path.join(allowed, 'status.json');
    fs.writeFileSync(json, JSON.stringify({ backup: { ageHours: 3 } }));
    expect(await read({ Path: text, Pattern: 'queue=(\\d+)' })).toMatchObject({ ok: true, value: 17 });
    expect(await read({ Path: json, JsonPath: '$.backup.ageHours' })).toMatchObject({ ok: true, value: 3 });
    expect(await read({ Path: text })).toMatchObject({ ok: true, value: 'version=4.2\nqueue=17' });
    expect(await read({ Path: path.join(allowed, 'missing') })).toMatchObject({ ok: false });
  });

  it('reads a file of its own data folder', async () => {
    fs.writeFileSync(path.join(dataDir, 'one-time.json'), '["done"]\n');
    expect(await read({ Path: path.join(dataDir, 'one-time.json') })).toMatchObject({ ok: true, value: '["done"]' });
  });

  it('reads a relative path within its own data folder, on any system', async () => {
    fs.mkdirSync(path.join(dataDir, 'status'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'status', 'queue.txt'), 'queue=5\n');
    expect(await read({ Path: 'status/queue.txt', Pattern: 'queue=(\\d+)' })).toMatchObject({
      ok: true,
      value: 5,
      detail: expect.stringContaining('status/queue.txt'),
    });
  });

  it('refuses a file outside the folders it may read, saying so, and reads none of it', async () => {
    const refused = await read({ Path: path.join(outside, 'secrets.key') });
    expect(refused).toEqual({
      ok: false,
      value: '',
      detail: `${path.join(outside, 'secrets.key')} is outside the folders this agent may read (--read-allow)`,
      metrics: {},
    });
    // A missing file outside is refused alike: the answer does not tell whether it exists.
    expect((await read({ Path: path.join(outside, 'nothing-here') })).detail).toMatch(
      /outside the folders this agent may read/,
    );
    // A relative path is within the data folder, and cannot climb out of it.
    expect((await read({ Path: ['..', 'portal', 'keys', 'secrets.key'].join(path.sep) })).detail).toMatch(
      /outside the folders this agent may read/,
    );
  });

  it('refuses a way out of an allowed folder by ..', async () => {
    const escape = `${allowed}${path.sep}..${path.sep}..${path.sep}..${path.sep}portal${path.sep}keys${path.sep}secrets.key`;
    const refused = await read({ Path: escape });
    expect(refused).toMatchObject({ ok: false, value: '' });
    expect(refused.detail).toMatch(/outside the folders this agent may read/);
  });

  it('refuses a way out of an allowed folder by a symlink, to a file or to a folder', async () => {
    fs.symlinkSync(path.join(outside, 'secrets.key'), path.join(allowed, 'key-link'));
    fs.symlinkSync(outside, path.join(allowed, 'keys-link'), 'junction');
    for (const link of [path.join(allowed, 'key-link'), path.join(allowed, 'keys-link', 'secrets.key')]) {
      const refused = await read({ Path: link });
      expect(refused).toMatchObject({ ok: false, value: '' });
      expect(refused.detail).toMatch(/outside the folders this agent may read/);
    }
  });

  it('never reads its own secrets: its identity, the token it enrols with, its outbox, anything owner-only', async () => {
    const wide = readPolicy(dataDir, machine);
    fs.writeFileSync(path.join(dataDir, 'identity.json'), '{"agentKey":"the agent key"}', { mode: 0o600 });
    fs.writeFileSync(path.join(dataDir, 'token'), 'the tenant token', { mode: 0o600 });
    fs.writeFileSync(path.join(dataDir, 'outbox.jsonl'), '{"value":"a result"}\n', { mode: 0o600 });
    fs.writeFileSync(path.join(dataDir, 'later-secret.json'), '{"secret":"s"}', { mode: 0o600 });
    const names = [
      'identity.json',
      'token',
      'outbox.jsonl',
      ...(process.platform === 'win32' ? [] : ['later-secret.json']),
    ];
    // Also when a folder it may read holds its data folder.
    for (const policy of [files, wide]) {
      for (const name of names) {
        const refused = await runOperation(
          OPERATION_TYPES.LocalFileRead,
          new Map([['Path', path.join(dataDir, name)]]),
          context(policy),
        );
        expect(refused).toMatchObject({ ok: false, value: '' });
        expect(refused.detail).toBe(
          `${path.join(dataDir, name)} is one of this agent's own secrets: it never reads it`,
        );
      }
    }
  });
});

describe('Synthetic', () => {
  it('runs the steps in order, carrying a value from one step to the next', async () => {
    const steps = [
      {
        Name: 'Sign in',
        Method: 'POST',
        Url: `${base}/session`,
        Body: { user: 'probe' },
        Extract: { session: '$.sessionId' },
      },
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
    const good = await run(OPERATION_TYPES.Authentication, {
      Url: `${base}/issuer/.well-known/openid-configuration`,
      Username: 'probe',
      Password: 'right',
      ClientId: 'portal',
    });
    expect(good.ok).toBe(true);
    expect(good.detail).toMatch(/with an access token/);
    const bad = await run(OPERATION_TYPES.Authentication, {
      Url: `${base}/token`,
      Username: 'probe',
      Password: 'wrong-secret',
    });
    expect(bad).toMatchObject({ ok: false, metrics: { StatusCode: 400 } });
    expect(bad.detail).not.toContain('wrong-secret');
  });

  it('asks for client credentials when no user name is given', async () => {
    expect(
      await run(OPERATION_TYPES.Authentication, { Url: `${base}/token`, ClientId: 'probe', ClientSecret: 'right' }),
    ).toMatchObject({ ok: true });
  });
});

describe('Metric', () => {
  it('reports the CPU by default, memory or disk when asked', async () => {
    expect(await run(OPERATION_TYPES.Metric, {})).toMatchObject({
      ok: true,
      value: 12.5,
      detail: 'CPU 12.5%, memory 40%',
      metrics: { CpuPercent: 12.5, MemoryPercent: 40 },
    });
    expect(await run(OPERATION_TYPES.Metric, { Metric: 'Memory' })).toMatchObject({ value: 40 });
    expect(await run(OPERATION_TYPES.Metric, { Metric: 'Disk' })).toMatchObject({
      value: 70,
      metrics: { DiskPercent: 70, DiskFreePercent: 30 },
    });
    expect(await run(OPERATION_TYPES.Metric, { Metric: 'DiskFree' })).toMatchObject({ value: 30 });
  });

  it('reports the free space of the disk its Mount names, not the CPU', async () => {
    const free = await run(OPERATION_TYPES.Metric, { Mount: '/var' });
    expect(free).toEqual({
      ok: true,
      value: 30,
      detail: 'Disk /var: 30% free, 70% used (30.0 GB free of 100.0 GB)',
      metrics: { DiskPercent: 70, DiskFreePercent: 30 },
    });
  });
});

describe('the disk a Mount names', () => {
  const disk = (mount: string) => ({ mount, size: 100, available: 50, use: 50 });
  const linux = [disk('/'), disk('/var'), disk('/var/lib/docker'), disk('/boot/efi')];
  const windows = [disk('C:'), disk('D:')];

  it('is, on Linux, the mount point that holds the path', () => {
    expect(diskOf(linux, '/', 'linux')?.mount).toBe('/');
    expect(diskOf(linux, undefined, 'linux')?.mount).toBe('/');
    expect(diskOf(linux, '/var', 'linux')?.mount).toBe('/var');
    expect(diskOf(linux, '/var/log/syslog', 'linux')?.mount).toBe('/var');
    expect(diskOf(linux, '/variable', 'linux')?.mount).toBe('/');
    expect(diskOf(linux, '/var/lib/docker/x', 'linux')?.mount).toBe('/var/lib/docker');
  });

  it('is, on Windows, the drive it names, and the system drive for / or nothing', () => {
    expect(diskOf(windows, 'D:', 'win32', 'C:')?.mount).toBe('D:');
    expect(diskOf(windows, 'd:\\data', 'win32', 'C:')?.mount).toBe('D:');
    expect(diskOf(windows, '/', 'win32', 'C:')?.mount).toBe('C:');
    expect(diskOf(windows, '', 'win32', 'D:')?.mount).toBe('D:');
    expect(diskOf(windows, 'E:', 'win32', 'C:')).toBeUndefined();
  });

  it('is measured on this machine: the free space of the disk holding the Mount, or a failure naming it', async () => {
    const real = { metrics: new HostMetrics(), outbound: outboundPolicy(base, ''), files: noFiles };
    const where = process.platform === 'win32' ? 'C:' : os.tmpdir();
    const expected = diskOf(await si.fsSize(), where)!;
    const measured = await runOperation(OPERATION_TYPES.Metric, new Map([['Mount', where]]), real);
    // Other programs write meanwhile: the figures agree to within half a percent.
    expect(measured).toMatchObject({
      ok: true,
      detail: expect.stringMatching(new RegExp(`^Disk ${expected.mount}: `)),
    });
    expect(measured.metrics.DiskPercent).toBeCloseTo(expected.use, 0);
    expect(measured.value).toBeCloseTo(100 - expected.use, 0);
    if (process.platform === 'win32')
      expect(await runOperation(OPERATION_TYPES.Metric, new Map([['Mount', 'Q:']]), real)).toMatchObject({
        ok: false,
        detail: 'No disk of this machine holds Q:',
      });
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
    expect(Object.fromEntries(resolved)).toEqual({
      Url: 'https://x.test',
      Password: 's3cret',
      Home: '/home/probe',
      Host: 'host-1',
      Odd: undefined,
    });
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
