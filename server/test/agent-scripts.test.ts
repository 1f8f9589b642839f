import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_OPERATION_MESSAGES, type ScriptDispatch, type ScriptRun } from '@cfs/contracts/device-operations';
import type { DeviceInstallation } from '@cfs/contracts/devices';
import { FREQUENCY_TYPES, INSTALL_STATUSES, OPERATION_TYPES, PACKAGE_TYPES } from '@cfs/contracts/fleet';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { BASE_ROLES } from '../src/db/seed.js';
import {
  createDevice,
  createSubscriptionAs,
  createTenantAs,
  createTokenAs,
  createUserIn,
  unique,
} from './factories.js';
import { insertPackageWithOperation } from './fleet-factories.js';
import { promoteRealAgent } from './agent-enrolment.js';
import { createListeningPortal, type TestPortal } from './harness.js';
import { agentProgram, fromSources, until } from './processes.js';
import { multipart } from './upload-helpers.js';

/*
 * Scripts on a real agent (the agent from its sources, as `cfs-agent run` starts it) against a
 * listening portal: a script of the catalogue installed on the device runs on demand with its exit
 * code and output kept, a timeout ends it, and the agent refuses what it may not run — a package
 * its allow list does not name, a signature that does not hold under the key it pinned, a file
 * changed on the device. Setting up a script needs Devices.Scripts, which operators do not hold.
 */

const ALLOWED = 'Maintenance scripts';
const OTHER = 'Other scripts';

let portal: TestPortal & { origin: string };
let agent: ChildProcess | undefined;
const output: string[] = [];
let dataDir = '';
let tenantId = '';
let deviceId = '';
let subscriptionId = '';

async function api<T>(method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, user = 'admin'): Promise<T> {
  const response = await portal.as(user, { method, url, ...(payload === undefined ? {} : { payload }) });
  if (response.statusCode !== 200)
    throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json<T>();
}

beforeAll(async () => {
  portal = await createListeningPortal();
  tenantId = (await createTenantAs(portal, 'admin')).tenantId;
  const subscription = await createSubscriptionAs(portal, 'admin', tenantId);
  subscriptionId = subscription.subscriptionId;
  const token = (await createTokenAs(portal, 'admin', tenantId)).generatedToken;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-scripts-agent-'));
  const machineName = `scripts-${unique()}`;
  agent = spawn(
    process.execPath,
    fromSources(
      agentProgram,
      'run',
      '--portal',
      portal.origin,
      '--data',
      dataDir,
      '--name',
      machineName,
      '--script-allow',
      ALLOWED,
    ),
    { env: { ...process.env, CFS_AGENT_TOKEN: token, CFS_AGENT_POLL_MS: '200' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  agent.stdout?.on('data', keep);
  agent.stderr?.on('data', keep);
  await promoteRealAgent(portal, machineName, subscription.subscriptionId, output);
  await until(
    async () => {
      const device = await scoped(portal.db, ALL_TENANTS)
        .selectFrom('device')
        .select(['device_id', 'last_contact'])
        .where('machine_name', '=', machineName)
        .executeTakeFirst();
      deviceId = device?.device_id ?? '';
      return device?.last_contact !== null && device !== undefined;
    },
    `the device to hear from its agent\n${output.join('\n')}`,
  );
}, 60_000);

afterAll(async () => {
  agent?.kill('SIGTERM');
  await portal?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A ScriptRunner package of the tenant with one script version, installed on the device. */
/** The tenant's package of that name, when it has one. */
async function packageNamed(name: string): Promise<string | undefined> {
  const row = await scoped(portal.db, ALL_TENANTS)
    .selectFrom('package')
    .select('package_id')
    .where('name', '=', name)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row?.package_id;
}

async function installedScript(name: string, version: string, script: string) {
  const packageId =
    (await packageNamed(name)) ??
    (
      await api<{ packageId: string }>('PUT', '/v1/packages', {
        name,
        packageTypeId: PACKAGE_TYPES.ScriptRunner,
        tenantId,
        operatingSystemRidsId: [4],
      })
    ).packageId;
  const uploaded = await portal.as('admin', {
    method: 'POST',
    url: '/v1/packages/upload',
    ...multipart({ packageId, version, label: version }, { fileName: 'check.sh', content: script }),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const packageVersionId = uploaded.json<{ packageVersionId: string }>().packageVersionId;
  await api('POST', `/v1/deviceInstallations/${deviceId}/packages`, [{ deviceId, packageId, packageVersionId }]);
  await until(
    async () => {
      const rows = await api<DeviceInstallation[]>(
        'GET',
        `/v1/devices/GetPackageInstallsWithVersions(deviceId=${deviceId})`,
      );
      const row = rows.find((candidate) => candidate.installPackage.packageId === packageId);
      return row?.installStatus === INSTALL_STATUSES.Installed && row.installedPackageVersionId === packageVersionId;
    },
    `${name} ${version} installed\n${output.join('\n')}`,
    30_000,
  );
  return { packageId, packageVersionId };
}

/** A Script operation of the package, on the device, run on demand, with the given timeout. */
async function scriptOperation(packageId: string, timeoutSeconds?: number) {
  const operation = await api<{ operationId: string }>('PUT', `/v1/packages/${packageId}/operations`, {
    name: `Run ${unique()}`,
    frequencyDefinitions: [FREQUENCY_TYPES.OnDemand],
    defaultInterval: '00:05:00',
    operationType: OPERATION_TYPES.Script,
    operationResultTypeId: 1,
  });
  return api<{ deviceOperationId: string }>('PUT', '/v1/deviceOperations', {
    deviceId,
    operationId: operation.operationId,
    label: 'Check',
    frequencyTypeId: FREQUENCY_TYPES.OnDemand,
    interval: '00:05:00',
    parameters:
      timeoutSeconds === undefined
        ? []
        : [{ Name: 'TimeoutSeconds', Source: 'PortalEntry', Value: String(timeoutSeconds) }],
  });
}

/** Queues the device operation and waits for the run the agent reports. */
async function runOnce(deviceOperationId: string): Promise<ScriptRun> {
  const before = (await api<ScriptRun[]>('GET', `/v1/deviceOperations/${deviceOperationId}/scriptruns`)).length;
  await api('POST', `/v1/deviceOperations/${deviceOperationId}/enqueueOnDemand`);
  let runs: ScriptRun[] = [];
  await until(
    async () => {
      runs = await api<ScriptRun[]>('GET', `/v1/deviceOperations/${deviceOperationId}/scriptruns`);
      return runs.length > before;
    },
    `the script run\n${output.join('\n')}`,
    30_000,
  );
  return runs[0]!;
}

describe('scripts on a real agent', () => {
  it('runs an installed script of an allowed package on demand and keeps its exit code and output; a timeout ends it', async () => {
    const script = await installedScript(
      ALLOWED,
      '1.0.0',
      'echo "hello from $(uname -s)"\necho "disk check" >&2\nprintf "%s" "$CFS_AGENT_TOKEN" > token-seen\nexit 3\n',
    );
    const { deviceOperationId } = await scriptOperation(script.packageId);
    const run = await runOnce(deviceOperationId);
    expect(run).toMatchObject({
      exitCode: 3,
      timedOut: false,
      refused: null,
      stdout: 'hello from Linux\n',
      stderr: 'disk check\n',
      truncated: false,
    });
    expect(run.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Its operation log says how it ended; the audit trail holds the run.
    await until(async () => {
      const logs = await api<{ detail: string }[]>('GET', `/v1/deviceOperations/${deviceOperationId}/logs`);
      return logs.some(
        (entry) =>
          entry.detail === 'Failure: check.sh exited with code 3' ||
          entry.detail.startsWith('Failure: check.sh exited with code 3 in'),
      );
    }, 'the operation log');
    const audit = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('audit_event')
      .select(['action', 'changes'])
      .where('entity_id', '=', deviceOperationId)
      .where('action', '=', 'run script')
      .execute();
    expect(audit).toHaveLength(1);

    // Output past 64 KiB is cut; an endless script is ended by its timeout, with what it wrote until then.
    const noisy = await installedScript(
      ALLOWED,
      '1.1.0',
      'head -c 100000 /dev/zero | tr "\\0" "x"\necho started >&2\nsleep 30\n',
    );
    const slow = await scriptOperation(noisy.packageId, 2);
    const started = Date.now();
    const ended = await runOnce(slow.deviceOperationId);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(ended).toMatchObject({
      exitCode: null,
      timedOut: true,
      refused: null,
      stderr: 'started\n',
      truncated: true,
    });
    expect(ended.stdout).toHaveLength(64 * 1024);
  }, 120_000);

  it('refuses a package its allow list does not name, a signature its pinned key does not verify, and a changed file', async () => {
    const other = await installedScript(OTHER, '1.0.0', 'echo ran > "$HOME/should-not-exist"\n');
    const notAllowed = await runOnce((await scriptOperation(other.packageId)).deviceOperationId);
    expect(notAllowed).toMatchObject({ exitCode: null, sha256: null, stdout: '' });
    expect(notAllowed.refused).toContain("is not in this agent's script allow list");

    const allowed = await installedScript(ALLOWED, '2.0.0', 'echo fine\n');
    const { deviceOperationId } = await scriptOperation(allowed.packageId);
    expect((await runOnce(deviceOperationId)).stdout).toBe('fine\n');

    // The agent pinned the portal's key; a script signed by another key (as a portal that is not
    // this one would sign it) is refused.
    const pinnedFile = path.join(dataDir, 'script-key.json');
    const pinned = fs.readFileSync(pinnedFile, 'utf8');
    const stranger = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    fs.writeFileSync(pinnedFile, JSON.stringify({ publicKey: stranger }));
    const unsigned = await runOnce(deviceOperationId);
    expect(unsigned.refused).toContain('signature does not hold');
    expect(unsigned.stdout).toBe('');
    fs.writeFileSync(pinnedFile, pinned);

    // The installed file changed on the device after the portal signed it.
    const installed = JSON.parse(fs.readFileSync(path.join(dataDir, 'installed.json'), 'utf8')) as Record<
      string,
      { path: string }
    >;
    fs.writeFileSync(installed[allowed.packageId]!.path, 'echo changed\n');
    const changed = await runOnce(deviceOperationId);
    expect(changed.refused).toContain('SHA-256 differs');
    expect(changed.stdout).toBe('');
  }, 120_000);

  it('queues a script on several devices at once: where its package is installed it runs, elsewhere it says so', async () => {
    const script = await installedScript(ALLOWED, '3.0.0', 'echo "fleet run"\n');
    const { operationId } = await api<{ operationId: string }>('PUT', `/v1/packages/${script.packageId}/operations`, {
      name: 'Fleet check',
      frequencyDefinitions: [FREQUENCY_TYPES.OnDemand],
      defaultInterval: '00:05:00',
      operationType: OPERATION_TYPES.Script,
      operationResultTypeId: 1,
    });
    const bare = await createDevice(portal, tenantId, subscriptionId, { name: 'no-agent' });
    const dispatched = await api<ScriptDispatch[]>('POST', '/v1/deviceOperations/runScript', {
      operationId,
      deviceIds: [deviceId, bare.deviceId],
      timeoutSeconds: 60,
    });
    const byDevice = new Map(dispatched.map((row) => [row.deviceId, row]));
    expect(byDevice.get(bare.deviceId)).toMatchObject({
      queued: false,
      deviceOperationId: null,
      message: DEVICE_OPERATION_MESSAGES.scriptNotInstalled,
    });
    const queued = byDevice.get(deviceId)!;
    expect(queued).toMatchObject({ queued: true, message: DEVICE_OPERATION_MESSAGES.scriptQueued });
    let runs: ScriptRun[] = [];
    await until(
      async () => {
        runs = await api<ScriptRun[]>('GET', `/v1/deviceOperations/${queued.deviceOperationId}/scriptruns`);
        return runs.length > 0;
      },
      `the fleet run\n${output.join('\n')}`,
      30_000,
    );
    expect(runs[0]).toMatchObject({ exitCode: 0, stdout: 'fleet run\n' });
    // Queued again, the same device operation runs again (none is made twice), with its timeout.
    const again = await api<ScriptDispatch[]>('POST', '/v1/deviceOperations/runScript', {
      operationId,
      deviceIds: [deviceId],
    });
    expect(again[0]?.deviceOperationId).toBe(queued.deviceOperationId);
    const made = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('device_operation')
      .select(['device_operation_id', 'parameters'])
      .where('operation_id', '=', operationId)
      .execute();
    expect(made).toHaveLength(1);
    expect(made[0]?.parameters).toEqual([{ Name: 'TimeoutSeconds', Source: 'PortalEntry', Value: '60' }]);
    // An operation that is not a script is refused, naming it.
    const notAScript = await portal.as('admin', {
      method: 'POST',
      url: '/v1/deviceOperations/runScript',
      payload: { operationId: (await insertPackageWithOperation(portal, tenantId)).operationId, deviceIds: [deviceId] },
    });
    expect(notAScript.statusCode).toBe(400);
    expect(notAScript.body).toContain(DEVICE_OPERATION_MESSAGES.notAScript);
  }, 90_000);

  it('is chosen only by holders of Devices.Scripts: an operator of the tenant may not set one up, upload a version of it, or install another one', async () => {
    const packageId = (await packageNamed(ALLOWED)) ?? '';
    const staff = `scripts-operator-${unique()}`;
    await createUserIn(portal, staff, BASE_ROLES.Operator!.permissions, tenantId);
    const refusedForScripts = (response: { statusCode: number; body: string }) => {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.body).toContain(DEVICE_OPERATION_MESSAGES.scriptsRequired);
    };
    refusedForScripts(
      await portal.as(staff, {
        method: 'PUT',
        url: `/v1/packages/${packageId}/operations`,
        payload: {
          name: 'Operator script',
          frequencyDefinitions: [FREQUENCY_TYPES.OnDemand],
          defaultInterval: '00:05:00',
          operationType: OPERATION_TYPES.Script,
          operationResultTypeId: 1,
        },
      }),
    );
    refusedForScripts(
      await portal.as(staff, {
        method: 'POST',
        url: '/v1/packages/upload',
        ...multipart({ packageId, version: '9.0.0', label: '9.0.0' }, { fileName: 'check.sh', content: 'id\n' }),
      }),
    );
    const versions = await portal.db
      .selectFrom('package_version')
      .select(['package_version_id', 'version'])
      .where('package_id', '=', packageId)
      .execute();
    expect(versions.map((row) => row.version)).not.toContain('9.0.0');
    const older = versions.find((row) => row.version === '1.0.0')!.package_version_id;
    refusedForScripts(
      await portal.as(staff, {
        method: 'POST',
        url: `/v1/deviceInstallations/${deviceId}/packages`,
        payload: [{ deviceId, packageId, packageVersionId: older }],
      }),
    );
    // Saving the device's choices as they are changes no script: the operator may.
    const current = (
      await scoped(portal.db, ALL_TENANTS)
        .selectFrom('device_installation')
        .select('package_version_id')
        .where('device_id', '=', deviceId)
        .where('package_id', '=', packageId)
        .executeTakeFirstOrThrow()
    ).package_version_id;
    const kept = await portal.as(staff, {
      method: 'POST',
      url: `/v1/deviceInstallations/${deviceId}/packages`,
      payload: [{ deviceId, packageId, packageVersionId: current }],
    });
    expect(kept.statusCode, kept.body).toBe(200);
  });
});
