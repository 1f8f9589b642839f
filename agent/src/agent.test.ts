import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentInventorySchema,
  type AgentConfiguration,
  type AgentInventory,
  type AgentPackage,
} from '@cfs/contracts/agent';
import { FREQUENCY_TYPES, OPERATION_TYPES } from '@cfs/contracts/fleet';
import { Agent } from './agent.js';
import type { OutboxItem } from './outbox.js';
import { installService, type ServiceManager } from './service.js';

const DEVICE_ID = '9b2f4c1e-1111-4a5b-8c6d-000000000001';
const OPERATION_ID = '9b2f4c1e-2222-4a5b-8c6d-000000000002';
const TOKEN = '9b2f4c1e-3333-4a5b-8c6d-000000000003';
/** The fake portal's script key (its configuration carries one, as the portal's does). */
const SCRIPT_KEY = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** A portal as small as the agent needs, whose answers a test changes as it goes. */
class FakePortal {
  server!: http.Server;
  url = '';
  enrolled = false;
  refuseDevice = false;
  refuseToken = false;
  packetsDown = false;
  restart = false;
  queued = true;
  packets: { entityId: string; timestamp: string; message: Record<string, unknown> }[] = [];
  operationLogs: string[] = [];
  completions: string[] = [];
  acknowledged = 0;
  packages: AgentPackage[] = [];
  files = new Map<string, Buffer>();
  reports: { packageId: string; status: string; packageVersionId: string | null }[] = [];
  reportsDown = false;
  inventories: AgentInventory[] = [];

  configuration(): AgentConfiguration {
    return {
      deviceId: DEVICE_ID,
      name: 'test',
      heartbeatIntervalSeconds: 1,
      loggingLevel: 'None',
      traceExpiration: null,
      tracing: false,
      restartAgent: this.restart,
      operations: [
        {
          deviceOperationId: OPERATION_ID,
          operationId: OPERATION_ID,
          operationName: 'Availability',
          label: 'Portal',
          operationTypeId: OPERATION_TYPES.Availability,
          operationResultTypeId: 2,
          frequencyTypeId: FREQUENCY_TYPES.OnDemand,
          intervalSeconds: 30,
          completionToken: this.queued ? TOKEN : null,
          parameters: [{ name: 'Url', source: 'PortalEntry', value: `${this.url}/ok` }],
          modified: new Date(),
          script: null,
        },
      ],
      packages: this.packages,
      scriptKey: SCRIPT_KEY,
      agentRelease: null,
    };
  }

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const send = (status: number, value?: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(value === undefined ? undefined : JSON.stringify(value));
        };
        const auth = request.headers.authorization ?? '';
        const url = request.url ?? '';
        if (url === '/ok') return send(200, {});
        if (url === '/v1/agent/enrol') {
          if (this.refuseToken) return send(401, { message: 'The token has been revoked.' });
          return this.enrolled
            ? send(200, { status: 'enrolled', deviceId: DEVICE_ID, credential: 'cfsd_test' })
            : send(200, { status: 'pending', pendingDeviceId: DEVICE_ID });
        }
        if (auth !== 'Bearer cfsd_test' || this.refuseDevice)
          return send(401, { message: 'The device credential is not valid.' });
        if (url === '/v1/agent/configuration') return send(200, this.configuration());
        if (url === '/v1/agent/version') return send(204);
        if (url === '/v1/agent/restart/acknowledge') {
          this.acknowledged += 1;
          this.restart = false;
          return send(204);
        }
        if (url === '/v1/agent/inventory') {
          this.inventories.push(JSON.parse(body) as AgentInventory);
          return send(200, { changes: 0 });
        }
        if (url === '/v1/packets') {
          if (this.packetsDown) return send(503, { message: 'down' });
          this.packets.push(...(JSON.parse(body) as FakePortal['packets']));
          return send(200, {});
        }
        if (url === `/v1/agent/operations/${OPERATION_ID}/logs`) {
          this.operationLogs.push(
            ...(JSON.parse(body) as { entries: { detail: string }[] }).entries.map((entry) => entry.detail),
          );
          return send(204);
        }
        if (url === `/v1/agent/operations/${OPERATION_ID}/complete`) {
          this.completions.push((JSON.parse(body) as { completionToken: string }).completionToken);
          this.queued = false;
          return send(204);
        }
        const download = /^\/v1\/agent\/packageversions\/([^/]+)\/download$/.exec(url);
        if (download && this.files.has(download[1]!)) {
          response.writeHead(200, { 'content-type': 'application/octet-stream' });
          return response.end(this.files.get(download[1]!));
        }
        const installation = /^\/v1\/agent\/installations\/([^/]+)$/.exec(url);
        if (installation) {
          if (this.reportsDown) return send(503, { message: 'down' });
          const report = JSON.parse(body) as { status: string; packageVersionId: string | null };
          this.reports.push({
            packageId: installation[1]!,
            status: report.status,
            packageVersionId: report.packageVersionId,
          });
          const pkg = this.packages.find((item) => item.packageId === installation[1]);
          if (pkg && report.status === 'Installed') pkg.installedPackageVersionId = report.packageVersionId;
          return send(204);
        }
        send(404, { message: 'Not found.' });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let portal: FakePortal;
let dataDir: string;
beforeEach(async () => {
  portal = new FakePortal();
  await portal.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-agent-'));
});
afterEach(async () => {
  await new Promise((resolve) => portal.server.close(resolve));
  // A stopped agent may still finish a write it had begun (its spool, its state): removing the
  // folder meanwhile meets ENOTEMPTY, which Node's retries outlast.
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

const agentFor = () => new Agent({ server: portal.url, token: 'cfs_token', dataDir, pollMs: 200, quiet: true });

describe('the agent against a portal', () => {
  it('waits while pending, then runs a queued on-demand operation once, reports it and completes it with its token', async () => {
    const agent = agentFor();
    const running = agent.run();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(portal.packets).toEqual([]);
    portal.enrolled = true;
    await until(() => portal.completions.length > 0 && portal.packets.some((packet) => packet.entityId === DEVICE_ID));
    expect(portal.completions).toEqual([TOKEN]);
    expect(portal.operationLogs[0]).toMatch(/^Success: GET .*\/ok answered 200/);
    const heartbeat = portal.packets.find((packet) => packet.entityId === DEVICE_ID)!;
    expect(heartbeat.message).toMatchObject({
      Properties: { BlockName: os.hostname() },
      Metrics: { CpuPercent: expect.any(Number), MemoryPercent: expect.any(Number) },
    });
    expect((heartbeat.message.Metrics as { CpuPercent: number }).CpuPercent).toBeLessThanOrEqual(100);
    agent.stop();
    expect(await running).toEqual({ kind: 'stopped' });
    const identity = path.join(dataDir, 'identity.json');
    expect(JSON.parse(fs.readFileSync(identity, 'utf8'))).toMatchObject({
      deviceId: DEVICE_ID,
      credential: 'cfsd_test',
    });
    if (process.platform !== 'win32') expect(fs.statSync(identity).mode & 0o777).toBe(0o600);
  });

  it('keeps packets on disk while the portal is down, across a restart of the agent, and sends them once it is back', async () => {
    portal.enrolled = true;
    portal.queued = false;
    portal.packetsDown = true;
    const first = agentFor();
    const running = first.run();
    await until(
      () =>
        fs.existsSync(path.join(dataDir, 'outbox.jsonl')) &&
        fs.readFileSync(path.join(dataDir, 'outbox.jsonl'), 'utf8').includes(DEVICE_ID),
    );
    first.stop();
    await running;
    const kept = fs.readFileSync(path.join(dataDir, 'outbox.jsonl'), 'utf8').trim().split('\n').length;
    expect(kept).toBeGreaterThan(0);
    expect(portal.packets).toEqual([]);

    portal.packetsDown = false;
    const second = agentFor();
    const again = second.run();
    await until(() => portal.packets.length >= kept);
    second.stop();
    await again;
  });

  it('reports its machine’s inventory once enrolled, as the portal’s contract reads it, and not again after a restart within the day', async () => {
    portal.enrolled = true;
    portal.queued = false;
    const first = agentFor();
    const running = first.run();
    await until(() => portal.inventories.length === 1, 60_000);
    const inventory = agentInventorySchema.parse(portal.inventories[0]);
    expect(inventory.hardware.cores).toBe(os.cpus().length);
    expect(inventory.hardware.memoryBytes).toBe(os.totalmem());
    expect(inventory.os.name).not.toBe('');
    // This machine is a Debian one: dpkg lists its packages, Node's own among them or not, but never none.
    expect(inventory.software.length).toBeGreaterThan(10);
    expect(inventory.software.every((item) => item.name !== '' && item.version !== '')).toBe(true);
    first.stop();
    await running;
    const second = agentFor();
    const again = second.run();
    await until(() => portal.packets.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    second.stop();
    await again;
    expect(portal.inventories).toHaveLength(1);
  }, 90_000);

  it('acknowledges a restart request and ends the run so that it starts afresh', async () => {
    portal.enrolled = true;
    portal.queued = false;
    portal.restart = true;
    const exit = await agentFor().run();
    expect(exit).toEqual({ kind: 'restart' });
    expect(portal.acknowledged).toBe(1);
  });

  it('stops when the portal refuses its credential and its token (revoked)', async () => {
    portal.enrolled = true;
    portal.queued = false;
    const agent = agentFor();
    const running = agent.run();
    await until(() => portal.packets.length > 0);
    portal.refuseDevice = true;
    portal.refuseToken = true;
    expect(await running).toEqual({ kind: 'refused', message: 'The token has been revoked.' });
  });
});

describe('package installs', () => {
  const wanted = (
    id: string,
    content: Buffer,
    sha256 = createHash('sha256').update(content).digest('hex'),
    version = '1.2.3',
    packageId = `${id}-package`,
  ): AgentPackage => {
    portal.files.set(id, content);
    return {
      packageId,
      packageName: `Plug-in ${packageId.replace(/-package$/, '')}`,
      executableName: null,
      packageVersionId: id,
      version,
      fileName: 'plugin.js',
      sha256,
      size: content.length,
      downloadUrl: `${portal.url}/v1/agent/packageversions/${id}/download`,
      installStatusId: 1,
      installedPackageVersionId: null,
    };
  };

  it('installs a wanted version whose SHA-256 matches, refuses one that does not, and reports both', async () => {
    portal.enrolled = true;
    portal.queued = false;
    const good = Buffer.from('module.exports = 1;\n');
    portal.packages = [
      wanted('good', good),
      wanted('tampered', Buffer.from('evil'), createHash('sha256').update('expected').digest('hex')),
    ];
    const agent = agentFor();
    const running = agent.run();
    await until(() => portal.reports.length >= 2);
    agent.stop();
    await running;
    expect(portal.reports).toEqual(
      expect.arrayContaining([
        { packageId: 'good-package', status: 'Installed', packageVersionId: 'good' },
        { packageId: 'tampered-package', status: 'Failed', packageVersionId: 'tampered' },
      ]),
    );
    expect(fs.readFileSync(path.join(dataDir, 'packages', 'Plug-in_good', '1.2.3', 'plugin.js'))).toEqual(good);
    expect(fs.existsSync(path.join(dataDir, 'packages', 'Plug-in_tampered'))).toBe(false);
    expect(fs.readdirSync(path.join(dataDir, 'downloads'))).toEqual([]);
  });

  const installedJson = () =>
    JSON.parse(fs.readFileSync(path.join(dataDir, 'installed.json'), 'utf8')) as Record<
      string,
      { packageVersionId: string }
    >;
  const reportsOf = (status: string) => portal.reports.filter((report) => report.status === status);

  it('removes a package the portal no longer wants: deletes its files, forgets it and reports it Removed', async () => {
    portal.enrolled = true;
    portal.queued = false;
    const kept = Buffer.from('kept\n');
    portal.packages = [wanted('gone', Buffer.from('module.exports = 2;\n')), wanted('kept', kept)];
    const agent = agentFor();
    const running = agent.run();
    await until(() => reportsOf('Installed').length >= 2);
    expect(fs.existsSync(path.join(dataDir, 'packages', 'Plug-in_gone', '1.2.3', 'plugin.js'))).toBe(true);

    // The portal sets the installation to none: it stops listing the package.
    portal.packages = portal.packages.filter((pkg) => pkg.packageId !== 'gone-package');
    // Forgotten once the portal's answer is back, a moment after the portal has the report.
    await until(() => reportsOf('Removed').length > 0 && !('gone-package' in installedJson()));
    agent.stop();
    await running;
    expect(reportsOf('Removed')).toEqual([{ packageId: 'gone-package', status: 'Removed', packageVersionId: 'gone' }]);
    expect(fs.existsSync(path.join(dataDir, 'packages', 'Plug-in_gone'))).toBe(false);
    expect(Object.keys(installedJson())).toEqual(['kept-package']);
    expect(fs.readFileSync(path.join(dataDir, 'packages', 'Plug-in_kept', '1.2.3', 'plugin.js'))).toEqual(kept);
  });

  it('reports a removal again until the portal has heard it', async () => {
    portal.enrolled = true;
    portal.queued = false;
    portal.packages = [wanted('gone', Buffer.from('x\n'))];
    const agent = agentFor();
    const running = agent.run();
    await until(() => reportsOf('Installed').length > 0);
    portal.reportsDown = true;
    portal.packages = [];
    await until(() => !fs.existsSync(path.join(dataDir, 'packages', 'Plug-in_gone')));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Its files are gone, but it remembers the package while the portal has not heard.
    expect(Object.keys(installedJson())).toEqual(['gone-package']);
    portal.reportsDown = false;
    await until(() => reportsOf('Removed').length > 0);
    await until(() => Object.keys(installedJson()).length === 0);
    agent.stop();
    await running;
  });

  it("upgrades to the new version wanted, then removes the old version's files", async () => {
    portal.enrolled = true;
    portal.queued = false;
    portal.packages = [wanted('v1', Buffer.from('version 1\n'), undefined, '1.0.0', 'tool-package')];
    const agent = agentFor();
    const running = agent.run();
    await until(() => reportsOf('Installed').length > 0);
    const v1 = path.join(dataDir, 'packages', 'Plug-in_tool', '1.0.0', 'plugin.js');
    expect(fs.existsSync(v1)).toBe(true);

    const v2Content = Buffer.from('version 2\n');
    portal.packages = [wanted('v2', v2Content, undefined, '2.0.0', 'tool-package')];
    await until(() => reportsOf('Installed').some((report) => report.packageVersionId === 'v2'));
    agent.stop();
    await running;
    expect(fs.readdirSync(path.join(dataDir, 'packages', 'Plug-in_tool'))).toEqual(['2.0.0']);
    expect(fs.readFileSync(path.join(dataDir, 'packages', 'Plug-in_tool', '2.0.0', 'plugin.js'))).toEqual(v2Content);
    expect(installedJson()).toEqual({ 'tool-package': expect.objectContaining({ packageVersionId: 'v2' }) });
    expect(reportsOf('Removed')).toEqual([]);
  });
});

/** A service's command line and when its manager starts it again, as far as the test below needs them. */
interface Service {
  exec: string[];
  env: NodeJS.ProcessEnv;
  restartsAfter: (code: number | null) => boolean;
}

/**
 * What systemd does with the unit `cfs-agent install` writes: runs its ExecStart with INVOCATION_ID
 * set, and starts it again whenever it ends (Restart=always), but for the exit codes of
 * RestartPreventExitStatus.
 */
function systemdService(unitFile: string): Service {
  const unit = fs.readFileSync(unitFile, 'utf8');
  const prevented = /^RestartPreventExitStatus=(.*)$/m.exec(unit)![1]!.split(' ').map(Number);
  expect(unit).toContain('Restart=always');
  return {
    exec: /^ExecStart=(.*)$/m.exec(unit)![1]!.split(' '),
    env: { INVOCATION_ID: 'set' },
    restartsAfter: (code) => !prevented.includes(code ?? -1),
  };
}

/**
 * What the Task Scheduler does with the task `cfs-agent install` registers on Windows: runs its
 * action's command and arguments (no environment of its own), and starts it again after a failing
 * (non-zero) exit — at once here, where it waits a minute.
 */
function scheduledTaskService(taskFile: string): Service {
  const xml = fs.readFileSync(taskFile).subarray(2).toString('utf16le');
  const text = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)![1]!.replaceAll('&amp;', '&');
  expect(xml).toContain('<RestartOnFailure>');
  return {
    exec: [text('Command'), ...text('Arguments').split(' ')],
    env: {},
    restartsAfter: (code) => code !== 0,
  };
}

/** Runs a service as its manager would; `ended` calls back with each process's end first. */
function supervise(service: Service, env: NodeJS.ProcessEnv, ended: (code: number | null) => void) {
  const pids: number[] = [];
  let child: ChildProcess | undefined;
  let stopping = false;
  const start = () => {
    child = spawn(service.exec[0]!, service.exec.slice(1), { env: { ...env, ...service.env }, stdio: 'ignore' });
    pids.push(child.pid!);
    child.on('exit', (code) => {
      ended(code);
      if (!stopping && service.restartsAfter(code)) start();
    });
  };
  start();
  return {
    pids,
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (!child || child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

describe('the agent as a service', () => {
  it.each([
    ['systemd unit', 'systemd', systemdService],
    ['Windows scheduled task', 'task-scheduler', scheduledTaskService],
  ] as const)(
    'as a %s, ends its process when the portal asks for a restart, comes back as a new one, and loses no packet on the way',
    async (_, kind, serviceOf) => {
      portal.enrolled = true;
      portal.queued = false;
      // The portal does not take packets until the restart: they wait in the outbox on disk.
      portal.packetsDown = true;
      const layout = {
        serviceName: 'cfs-agent',
        unitDir: path.join(dataDir, 'unit'),
        binDir: path.join(dataDir, 'bin'),
        dataDir: path.join(dataDir, 'data'),
      };
      const main = path.join(import.meta.dirname, 'main.ts');
      // The files alone: nothing registered, and no command run (Windows's icacls is not here).
      const filesHere: ServiceManager = {
        kind,
        running: false,
        run: () => ({ status: 0, output: '' }),
        startDetached: () => undefined,
      };
      installService({ server: portal.url, name: 'svc' }, 'cfs_token', layout, filesHere, {
        program: process.execPath,
        args: ['--conditions=source', '--import', 'tsx', main],
        single: false,
      });
      const outbox = path.join(layout.dataDir, 'outbox.jsonl');
      const waiting = () =>
        fs.existsSync(outbox)
          ? fs
              .readFileSync(outbox, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line) as OutboxItem)
              .flatMap((item) => (item.kind === 'packet' ? [item.packet] : []))
          : [];
      const exits: (number | null)[] = [];
      let waitingAtExit: ReturnType<typeof waiting> = [];
      const service = supervise(
        serviceOf(path.join(layout.unitDir, kind === 'systemd' ? 'cfs-agent.service' : 'cfs-agent.xml')),
        { ...process.env, INVOCATION_ID: '', CFS_AGENT_POLL_MS: '200' },
        (code) => {
          exits.push(code);
          if (exits.length === 1) waitingAtExit = waiting();
        },
      );
      try {
        await until(() => waiting().filter((packet) => packet.entityId === DEVICE_ID).length >= 2, 30_000);
        portal.restart = true;
        await until(() => service.pids.length === 2, 30_000);
        expect(exits).toEqual([75]);
        expect(service.pids[1]).not.toBe(service.pids[0]);
        expect(portal.acknowledged).toBe(1);
        expect(waitingAtExit.length).toBeGreaterThanOrEqual(2);

        portal.packetsDown = false;
        const key = (packet: { entityId: string; timestamp: string }) => `${packet.entityId} ${packet.timestamp}`;
        await until(() => {
          const taken = new Set(portal.packets.map(key));
          return waitingAtExit.every((packet) => taken.has(key(packet)));
        }, 30_000);
        // The new process sends heartbeats of its own after those of the one before.
        const last = waitingAtExit.at(-1)!.timestamp;
        await until(
          () => portal.packets.some((packet) => packet.entityId === DEVICE_ID && packet.timestamp > last),
          30_000,
        );
      } finally {
        await service.stop();
      }
      expect(exits.at(-1)).toBe(0);
    },
    90_000,
  );
});
