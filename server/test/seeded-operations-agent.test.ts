import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import si from 'systeminformation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceOperation, OperationLogEntry } from '@cfs/contracts/device-operations';
import { NO_VERSION, type DeviceInstallation, type DeviceInventory } from '@cfs/contracts/devices';
import { FREQUENCY_TYPES, INSTALL_STATUSES } from '@cfs/contracts/fleet';
import type { ParameterDefinition } from '@cfs/contracts/packages';
import { diskOf, HostMetrics } from '../../agent/src/host-metrics.js';
import { outboundPolicy } from '../../agent/src/http-check.js';
import { runOperation, type OperationResult } from '../../agent/src/operations.js';
import { readPolicy } from '../../agent/src/read-allow.js';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import { createListeningPortal, type TestPortal } from './harness.js';
import { startDemoAgent, type RunningDemoAgent } from './demo-agent-process.js';
import { until } from './processes.js';

/*
 * The demo catalogue's operations as the agent runs them: each seeded operation (read from the
 * seeded database) through the agent's own code with this machine's real figures, and the disk
 * check and package installs through the real demo agent process against a listening portal.
 */

let portal: TestPortal & { origin: string };
let agent: RunningDemoAgent | undefined;
let target: http.Server;
let base = '';

beforeAll(async () => {
  // What the seeded operations call: a status API, a token endpoint and a page.
  target = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (request.url === '/ok') return json(200, { status: 'ok' });
      if (request.url === '/controller') return json(200, { state: 'Running', queue: { depth: 42 } });
      if (request.url === '/token') {
        const form = new URLSearchParams(body);
        return form.get('grant_type') === 'password' && form.get('password') === 'right'
          ? json(200, { access_token: 'at' })
          : json(400, { error: 'invalid_grant' });
      }
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;

  portal = await createListeningPortal();
  agent = await startDemoAgent(portal);
}, 60_000);

afterAll(async () => {
  await agent?.stop();
  await portal?.close();
  await new Promise((resolve) => target?.close(resolve));
});

const seededOperations = () =>
  scoped(portal.db, ALL_TENANTS)
    .selectFrom('package as p')
    .innerJoin('operation as o', 'o.package_id', 'p.package_id')
    .select(['o.operation_id', 'o.name', 'o.operation_type_id', 'o.parameter_definitions', 'p.tenant_id'])
    .where('o.created_by', '=', 'seed')
    .orderBy('o.name')
    .execute();

/** The disk of this machine that holds `where`, as systeminformation reports it. */
async function diskHolding(where: string) {
  const disk = diskOf(await si.fsSize(), where);
  if (!disk) throw new Error(`no disk holds ${where}`);
  return disk;
}

/**
 * What each seeded operation must do, by name: the values a person would enter where the seed has
 * no default, and what its result must show. A seeded operation missing here fails the test.
 */
const MEANINGS: Record<
  string,
  {
    given?: (dataDir: string) => Record<string, string>;
    check: (result: OperationResult, parameters: ReadonlyMap<string, string>) => Promise<void> | void;
  }
> = {
  Metric: {
    check: (result) => {
      expect(result).toMatchObject({
        ok: true,
        metrics: { CpuPercent: expect.any(Number), MemoryPercent: expect.any(Number) },
      });
      expect(result.value).toBe(result.metrics.CpuPercent);
      expect(result.detail).toBe(`CPU ${result.metrics.CpuPercent}%, memory ${result.metrics.MemoryPercent}%`);
    },
  },
  Availability: {
    given: () => ({ Url: `${base}/ok` }),
    check: (result) => {
      expect(result).toMatchObject({ ok: true, value: 1, metrics: { StatusCode: 200 } });
      expect(result.detail).toMatch(new RegExp(`^GET ${base}/ok answered 200 in \\d+ ms$`));
    },
  },
  'Api Read': {
    given: () => ({ Url: `${base}/controller`, JsonPath: '$.queue.depth' }),
    check: (result) =>
      expect(result).toMatchObject({ ok: true, value: 42, detail: `GET ${base}/controller: $.queue.depth = 42` }),
  },
  'Controller Status': {
    given: () => ({ Url: `${base}/controller` }),
    check: (result) =>
      expect(result).toMatchObject({ ok: true, value: 'Running', detail: `GET ${base}/controller: $.state = Running` }),
  },
  // Its description: a path relative to the agent's data folder, which every agent may read.
  'Read File': {
    given: (dataDir) => {
      fs.writeFileSync(path.join(dataDir, 'status.txt'), 'queue=17\n');
      return { Path: 'status.txt' };
    },
    check: (result) =>
      expect(result).toMatchObject({ ok: true, value: 'queue=17', detail: 'status.txt: 9 characters read' }),
  },
  Synthetic: {
    given: () => ({
      Steps: JSON.stringify([
        { Name: 'Home', Url: `${base}/ok`, ExpectStatus: 200 },
        { Name: 'Status', Url: `${base}/controller`, ExpectText: 'Running' },
      ]),
    }),
    check: (result) => {
      expect(result).toMatchObject({ ok: true, metrics: { Steps: 2 } });
      expect(result.detail.split('\n').map((line) => line.replace(/ in \d+ ms$/, ''))).toEqual([
        `Home: GET ${base}/ok → 200`,
        `Status: GET ${base}/controller → 200`,
      ]);
    },
  },
  'Sign In': {
    given: () => ({ Url: `${base}/token`, Username: 'probe', Password: 'right' }),
    check: (result) => {
      expect(result).toMatchObject({ ok: true, metrics: { StatusCode: 200 } });
      expect(result.detail).toMatch(/^Token request \(password\) at .*\/token answered 200 with an access token/);
    },
  },
  'Free Disk Space': {
    check: async (result, parameters) => {
      const disk = await diskHolding(parameters.get('Mount') ?? '');
      // The free part of the disk its Mount names, never the CPU; other programs write meanwhile.
      expect(result).toMatchObject({
        ok: true,
        detail: expect.stringMatching(new RegExp(`^Disk ${disk.mount}: [\\d.]+% free, [\\d.]+% used`)),
      });
      expect(result.metrics).not.toHaveProperty('CpuPercent');
      expect(result.value).toBeCloseTo(100 - disk.use, 0);
      expect(result.metrics.DiskFreePercent).toBe(result.value);
      expect(result.metrics.DiskPercent).toBeCloseTo(disk.use, 0);
    },
  },
};

describe('every seeded operation, run by the agent', () => {
  it('does what its name and description say, with the seeded defaults and the values a person would enter', async () => {
    const operations = await seededOperations();
    expect(operations.map((operation) => operation.name).sort()).toEqual(Object.keys(MEANINGS).sort());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-seeded-'));
    const context = { metrics: new HostMetrics(), outbound: outboundPolicy(base, ''), files: readPolicy(dataDir, '') };
    try {
      for (const operation of operations) {
        const meaning = MEANINGS[operation.name]!;
        const definitions = operation.parameter_definitions as ParameterDefinition[];
        const defaults = Object.fromEntries(
          definitions.flatMap((definition) =>
            definition.DefaultValue ? [[definition.Name, definition.DefaultValue]] : [],
          ),
        );
        const parameters = new Map(Object.entries({ ...defaults, ...meaning.given?.(dataDir) }));
        // Whatever the seed requires is given, and only parameters the operation defines.
        for (const definition of definitions)
          if (definition.Required)
            expect(parameters.get(definition.Name), `${operation.name}: ${definition.Name}`).toBeTruthy();
        for (const name of parameters.keys())
          expect(
            definitions.map((definition) => definition.Name),
            operation.name,
          ).toContain(name);
        const result = await runOperation(operation.operation_type_id, parameters, context);
        await meaning.check(result, parameters);
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);

  it('Free Disk Space reports the free space of its Mount through the real agent, not the CPU', async () => {
    const freeDiskSpace = (await seededOperations()).find((operation) => operation.name === 'Free Disk Space')!;
    const mount = ((freeDiskSpace.parameter_definitions as ParameterDefinition[]).find(
      (definition) => definition.Name === 'Mount',
    )?.DefaultValue ?? '') as string;
    const created = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/deviceOperations',
      payload: {
        deviceId: DEMO.demoAgentDevice,
        operationId: freeDiskSpace.operation_id,
        label: 'System disk',
        frequencyTypeId: FREQUENCY_TYPES.Recurring,
        interval: '00:00:30',
        parameters: [{ Name: 'Mount', Source: 'PortalEntry', Value: mount }],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json<DeviceOperation>().deviceOperationId;
    const read = async () =>
      (await portal.as('admin', { method: 'GET', url: `/v1/deviceOperations/${id}` })).json<DeviceOperation>();
    await until(
      async () => (await read()).packetInfo !== null,
      `the demo agent's disk packet\n${(agent?.output ?? []).join('\n')}`,
      30_000,
    );
    const { packetInfo } = await read();
    const disk = await diskHolding(mount);
    expect(Number(packetInfo?.value)).toBeCloseTo(100 - disk.use, 0);
    const packet = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('packet')
      .select('message')
      .where('entity_id', '=', id)
      .orderBy('received', 'desc')
      .executeTakeFirstOrThrow();
    const message = packet.message as { Metrics: Record<string, number>; Diagnostics: { Detail: string } };
    expect(message.Metrics).not.toHaveProperty('CpuPercent');
    expect(message.Metrics.DiskPercent).toBeCloseTo(disk.use, 0);
    expect(message.Diagnostics.Detail).toMatch(new RegExp(`^Disk ${disk.mount}: `));
    // The run's log line travels apart from its packet: it may arrive a moment later.
    const logs = async () =>
      (await portal.as('admin', { method: 'GET', url: `/v1/deviceOperations/${id}/logs` })).json<OperationLogEntry[]>();
    await until(
      async () => (await logs()).length > 0,
      `the demo agent's log of the disk run\n${(agent?.output ?? []).join('\n')}`,
      30_000,
    );
    expect((await logs())[0]?.detail).toMatch(new RegExp(`^Success: Disk ${disk.mount}: [\\d.]+% free`));
  }, 60_000);
});

describe('package installations on the real agent', () => {
  const installations = async () =>
    (
      await portal.as('admin', {
        method: 'GET',
        url: `/v1/devices/GetPackageInstallsWithVersions(deviceId=${DEMO.demoAgentDevice})`,
      })
    ).json<DeviceInstallation[]>();
  const choose = async (packageId: string, packageVersionId: string) => {
    const response = await portal.as('admin', {
      method: 'POST',
      url: `/v1/deviceInstallations/${DEMO.demoAgentDevice}/packages`,
      payload: [{ deviceId: DEMO.demoAgentDevice, packageId, packageVersionId }],
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<DeviceInstallation[]>();
  };
  const installationOf = async (name: string) => (await installations()).find((row) => row.packageName === name)!;
  const waitFor = (name: string, done: (row: DeviceInstallation) => boolean, what: string) =>
    until(async () => done(await installationOf(name)), `${what}\n${(agent?.output ?? []).join('\n')}`, 30_000);
  const installedJson = () =>
    JSON.parse(fs.readFileSync(path.join(agent?.dataDir ?? '', 'installed.json'), 'utf8')) as Record<
      string,
      { version: string }
    >;

  it('installs a version, upgrades keeping only the new one, and removes it when set to none: Removal Pending, then Removed', async () => {
    const agentPackage = await installationOf('CFS Agent');
    const version = (text: string) =>
      agentPackage.packageVersions.find((row) => row.version === text)!.packageVersionId;
    const { packageId } = agentPackage.installPackage;
    const folder = path.join(agent?.dataDir ?? '', 'packages', 'CFS_Agent');

    await choose(packageId, version('1.0.0'));
    await waitFor(
      'CFS Agent',
      (row) => row.installStatus === INSTALL_STATUSES.Installed && row.installedPackageVersionId === version('1.0.0'),
      'version 1.0.0 installed',
    );
    expect(fs.readdirSync(folder)).toEqual(['1.0.0']);

    await choose(packageId, version('1.1.0'));
    await waitFor(
      'CFS Agent',
      (row) => row.installStatus === INSTALL_STATUSES.Installed && row.installedPackageVersionId === version('1.1.0'),
      'version 1.1.0 installed',
    );
    await until(() => fs.readdirSync(folder).length === 1, 'the old version removed');
    expect(fs.readdirSync(folder)).toEqual(['1.1.0']);
    expect(installedJson()[packageId]).toMatchObject({ version: '1.1.0' });

    // The portal's state as saved, until the agent has removed it (it hears of it at once, so the
    // save's own answer shows it).
    const saved = await choose(packageId, NO_VERSION);
    expect(saved.find((row) => row.packageName === 'CFS Agent')).toMatchObject({
      installStatus: INSTALL_STATUSES.RemovalPending,
      packageVersionId: null,
    });
    await waitFor('CFS Agent', (row) => row.installStatus === INSTALL_STATUSES.Removed, 'the removal reported');
    expect(await installationOf('CFS Agent')).toMatchObject({
      installStatus: INSTALL_STATUSES.Removed,
      packageVersionId: null,
      installedPackageVersionId: null,
    });
    expect(fs.existsSync(folder)).toBe(false);
    // It forgets the package once the portal has answered its report.
    await until(() => !(packageId in installedJson()), 'the package forgotten in installed.json');
  }, 90_000);
});

describe('Restart Agent on the real demo agent', () => {
  it('ends the agent’s process and the portal starts a new one at once, which reports again', async () => {
    const started = () =>
      (agent?.output ?? []).flatMap((line) => /^\[demo agent\] started \(pid (\d+)\)$/.exec(line)?.[1] ?? []);
    const before = started();
    expect(before).toHaveLength(1);
    const asked = new Date();
    const response = await portal.as('admin', {
      method: 'POST',
      url: `/v1/devices/${DEMO.demoAgentDevice}/restartagent?__tenant__=${DEMO.contoso}`,
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    await until(() => started().length === 2, `a new agent process\n${(agent?.output ?? []).join('\n')}`, 30_000);
    expect(started()[1]).not.toBe(before[0]);
    const db = scoped(portal.db, ALL_TENANTS);
    await until(
      async () => {
        const latest = await db
          .selectFrom('packet_latest')
          .select('timestamp')
          .where('entity_id', '=', DEMO.demoAgentDevice)
          .executeTakeFirst();
        return Boolean(latest && latest.timestamp > asked);
      },
      `a heartbeat from the new process\n${(agent?.output ?? []).join('\n')}`,
      30_000,
    );
    const device = await db
      .selectFrom('device')
      .select('restart_agent_flag')
      .where('device_id', '=', DEMO.demoAgentDevice)
      .executeTakeFirstOrThrow();
    expect(device.restart_agent_flag).toBe(false);
  });
});

describe('inventory from the real demo agent', () => {
  it('arrives once the agent is enrolled: this machine’s hardware, operating system and packages', async () => {
    const read = async () =>
      (
        await portal.as('admin', {
          method: 'GET',
          url: `/v1/devices/${DEMO.demoAgentDevice}/inventory?__tenant__=${DEMO.contoso}`,
        })
      ).json<DeviceInventory>();
    await until(
      async () => (await read()).reported !== null,
      `an inventory report\n${(agent?.output ?? []).join('\n')}`,
      60_000,
    );
    const inventory = await read();
    expect(inventory.hardware?.cores).toBe(os.cpus().length);
    expect(inventory.software.length).toBeGreaterThan(10);
    // The first report is where the device's history starts: no change yet.
    expect(inventory.changes).toEqual([]);
  });
});
