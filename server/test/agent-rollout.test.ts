import { verify } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RELEASE_PACKAGE, agentReleaseSigningText } from '@cfs/contracts/agent';
import { AGENT_UPDATE_MESSAGES, type AgentUpdatePolicy } from '@cfs/contracts/agent-updates';
import { INSTALL_STATUSES } from '@cfs/contracts/fleet';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import type { DeviceCaller } from '../src/areas/agent/commands.js';
import {
  AgentReleaseTargets,
  agentReleaseOffer,
  haltSilentUpdates,
  recordAgentVersion,
  rolloutBucket,
} from '../src/areas/agent/updates.js';
import { registerAgentRelease } from '../src/areas/packages/agent-release.js';
import { createDevice, createSubscriptionAs, createTenantAs } from './factories.js';
import { buildAgentRelease } from './agent-enrolment.js';
import { createTestPortal, type TestPortal } from './harness.js';
import { multipart } from './upload-helpers.js';

/*
 * The portal's side of agent updates, with devices that report as agents do (the real agent's
 * update and rollback are in agent-updates.test.ts): the release the portal was built with is
 * registered as a version of the shared agent package; a new version is offered, signed, to the
 * devices of the first stage, to the rest once a device has run it for the rollback minutes; a
 * device that goes back, refuses or stays silent halts the rollout, and resuming offers it again;
 * a pinned version is what the tenant's devices run; the version report lists the agent.
 */

let portal: TestPortal;
let tenantId = '';
let devices: DeviceCaller[] = [];
const versionIds = new Map<string, string>();
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-agent-rollout-'));

const release = (version: string) => buildAgentRelease(version, path.join(folder, version, 'cfs-agent.cjs'));

async function upload(version: string, user = 'admin') {
  const packageId = await agentPackageId();
  return portal.as(user, {
    method: 'POST',
    url: '/v1/packages/upload',
    ...multipart(
      { packageId, version, label: version },
      { fileName: 'cfs-agent.cjs', content: fs.readFileSync(release(version)) },
    ),
  });
}

async function agentPackageId(): Promise<string> {
  const row = await scoped(portal.db, ALL_TENANTS)
    .selectFrom('package')
    .select('package_id')
    .where('name', '=', AGENT_RELEASE_PACKAGE)
    .where('tenant_id', 'is', null)
    .executeTakeFirstOrThrow();
  return row.package_id;
}

/** The offer a device's configuration call would carry, given the version it last reported. */
async function offer(device: DeviceCaller, now = new Date()) {
  const { agent_version } = await scoped(portal.db, ALL_TENANTS)
    .selectFrom('device')
    .select('agent_version')
    .where('device_id', '=', device.deviceId)
    .executeTakeFirstOrThrow();
  return agentReleaseOffer(portal.db, portal.runtime.scriptSigner, 'http://portal.test', device, agent_version, now);
}

async function policy(): Promise<AgentUpdatePolicy> {
  const response = await portal.as('admin', { method: 'GET', url: `/v1/agentUpdatePolicies/${tenantId}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AgentUpdatePolicy>();
}

async function savePolicy(body: object, user = 'admin') {
  return portal.as(user, { method: 'PUT', url: `/v1/agentUpdatePolicies/${tenantId}`, payload: body });
}

beforeAll(async () => {
  portal = await createTestPortal();
  tenantId = (await createTenantAs(portal, 'admin')).tenantId;
  const { subscriptionId } = await createSubscriptionAs(portal, 'admin', tenantId);
  const dist = path.dirname(release('0.1.0'));
  const said = await registerAgentRelease(portal.db, { ...portal.runtime.config, agentDist: dist });
  expect(said).toContain('0.1.0 was added');
  // Registering again (a second instance, the next start) adds nothing.
  expect(await registerAgentRelease(portal.db, { ...portal.runtime.config, agentDist: dist })).toContain(
    'is in the catalogue',
  );
  devices = [];
  for (let index = 0; index < 40; index += 1) {
    const device = await createDevice(portal, tenantId, subscriptionId);
    devices.push({
      kind: 'device',
      tenantId,
      deviceId: device.deviceId,
      subscriptionId,
      tokenGrantId: null,
      scope: { kind: 'some', tenantIds: [tenantId] },
    });
    await recordAgentVersion(portal.db, devices[index]!, { agentVersion: '0.1.0' });
  }
  const uploaded = await upload('0.2.0');
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  for (const row of await portal.db.selectFrom('package_version').select(['version', 'package_version_id']).execute())
    versionIds.set(row.version, row.package_version_id);
}, 60_000);

afterAll(async () => {
  await portal?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('agent updates, the portal side', () => {
  it('offers the Latest to every device by default, signed under the portal key, with its file to download', async () => {
    const offered = await offer(devices[0]!);
    expect(offered).toMatchObject({ version: '0.2.0', rollbackMinutes: 10, packageVersionId: versionIds.get('0.2.0') });
    expect(
      verify(
        null,
        Buffer.from(agentReleaseSigningText(offered!)),
        portal.runtime.scriptSigner.publicKey,
        Buffer.from(offered!.signature, 'base64'),
      ),
    ).toBe(true);
    const every = await Promise.all(devices.map((device) => offer(device)));
    expect(every.every((each) => each?.version === '0.2.0')).toBe(true);
  });

  it('needs Devices.Scripts to upload a version of the agent or choose its version, and checks the choice', async () => {
    expect((await upload('0.2.1', 'operator')).statusCode).toBe(403);
    expect((await savePolicy({ version: null, rolloutPercent: 50, rollbackMinutes: 10 }, 'operator')).statusCode).toBe(
      403,
    );
    const unknown = await savePolicy({ version: '9.9.9', rolloutPercent: 50, rollbackMinutes: 10 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ errors: Record<string, string[]> }>().errors.version).toEqual([
      AGENT_UPDATE_MESSAGES.unknownVersion,
    ]);
    const outOfRange = await savePolicy({ version: null, rolloutPercent: 0, rollbackMinutes: 2000 });
    expect(outOfRange.statusCode).toBe(400);
    expect(outOfRange.json<{ errors: Record<string, string[]> }>().errors).toMatchObject({
      rolloutPercent: [AGENT_UPDATE_MESSAGES.rolloutPercent],
      rollbackMinutes: [AGENT_UPDATE_MESSAGES.rollbackMinutes],
    });
    const extra = await savePolicy({ version: null, rolloutPercent: 50, rollbackMinutes: 10, stage: 2 });
    expect(extra.statusCode).toBe(400);
    expect(extra.body).toContain('stage');
    // Nor is it chosen per device, where other packages are.
    const perDevice = await portal.as('admin', {
      method: 'POST',
      url: `/v1/deviceInstallations/${devices[0]!.deviceId}/packages`,
      payload: [
        {
          deviceId: devices[0]!.deviceId,
          packageId: await agentPackageId(),
          packageVersionId: versionIds.get('0.2.0'),
        },
      ],
    });
    expect(perDevice.statusCode).toBe(400);
    expect(perDevice.body).toContain(AGENT_UPDATE_MESSAGES.agentPackageChosenByPolicy);
    // Another tenant's staff do not see it: the operator is not a member of this tenant.
    expect(
      (await portal.as('operator', { method: 'GET', url: `/v1/agentUpdatePolicies/${tenantId}` })).statusCode,
    ).toBe(404);
    // A tenant that does not exist has no policy to read or save.
    const nobody = '00000000-0000-4000-8000-000000000000';
    const saveNobody = await portal.as('admin', {
      method: 'PUT',
      url: `/v1/agentUpdatePolicies/${nobody}`,
      payload: { version: null, rolloutPercent: 50, rollbackMinutes: 10 },
    });
    expect(saveNobody.statusCode, saveNobody.body).toBe(404);
    expect(saveNobody.json()).toEqual({ message: 'The tenant was not found.' });
  });

  it('stages a rollout: the first stage at once, the rest once a device has run it for the rollback minutes', async () => {
    const saved = await savePolicy({ version: null, rolloutPercent: 25, rollbackMinutes: 5 });
    expect(saved.statusCode, saved.body).toBe(200);
    const first = devices.filter((device) => rolloutBucket(device.deviceId) < 25);
    const rest = devices.filter((device) => rolloutBucket(device.deviceId) >= 25);
    expect(first.length).toBeGreaterThan(0);
    expect(rest.length).toBeGreaterThan(0);
    for (const device of first) expect((await offer(device))?.version).toBe('0.2.0');
    for (const device of rest) expect(await offer(device)).toBeNull();

    const pioneer = first[0]!;
    await recordAgentVersion(portal.db, pioneer, {
      agentVersion: '0.1.0',
      update: { packageVersionId: versionIds.get('0.2.0')!, outcome: 'Updating' },
    });
    expect((await policy()).target).toMatchObject({ version: '0.2.0', updating: 1, running: 0, firstUpdated: null });
    // The new version's first session: it tells its version (its Updated report may be lost).
    await recordAgentVersion(portal.db, pioneer, { agentVersion: '0.2.0' });
    expect(await offer(pioneer)).toBeNull();
    const after = await policy();
    expect(after.target).toMatchObject({ running: 1, updating: 0, failed: 0, halted: null });
    expect(after.target?.firstUpdated).not.toBeNull();
    for (const device of rest) expect(await offer(device, new Date(Date.now() + 4 * 60_000))).toBeNull();
    for (const device of rest) expect((await offer(device, new Date(Date.now() + 6 * 60_000)))?.version).toBe('0.2.0');

    // The version report lists the agent as it lists any package.
    const report = await portal.as('admin', {
      method: 'GET',
      url: '/v1/compliancereport',
      query: { $filter: `tenantId eq ${tenantId} and packageName eq '${AGENT_RELEASE_PACKAGE}'`, $top: '100' },
    });
    expect(report.statusCode, report.body).toBe(200);
    const rows = report.json<{ value: { installedVersion: string; versionStatus: string }[] }>().value;
    expect(rows).toHaveLength(devices.length);
    expect(rows.filter((row) => row.installedVersion === '0.2.0' && row.versionStatus === 'Current')).toHaveLength(1);
    expect(rows.filter((row) => row.installedVersion === '0.1.0' && row.versionStatus === 'Outdated')).toHaveLength(
      devices.length - 1,
    );
  });

  it('halts the rollout when a device goes back from the version, and resumes it on request', async () => {
    const [, second, third] = devices;
    await recordAgentVersion(portal.db, second!, {
      agentVersion: '0.1.0',
      update: { packageVersionId: versionIds.get('0.2.0')!, outcome: 'RolledBack', detail: 'It ended 3 times.' },
    });
    const halted = await policy();
    expect(halted.target?.halted).not.toBeNull();
    expect(halted.target?.haltedReason).toContain('It ended 3 times.');
    expect(halted.target?.failed).toBe(1);
    expect(await offer(third!, new Date(Date.now() + 60 * 60_000))).toBeNull();
    const installation = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('device_installation')
      .select(['install_status_id', 'status_detail'])
      .where('device_id', '=', second!.deviceId)
      .where('package_id', '=', await agentPackageId())
      .executeTakeFirstOrThrow();
    expect(installation).toEqual({ install_status_id: INSTALL_STATUSES.Failed, status_detail: 'It ended 3 times.' });

    const resumed = await portal.as('admin', { method: 'POST', url: `/v1/agentUpdatePolicies/${tenantId}/resume` });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json<AgentUpdatePolicy>().target).toMatchObject({ halted: null, failed: 0 });
    expect((await offer(second!, new Date(Date.now() + 6 * 60_000)))?.version).toBe('0.2.0');
    // Resuming a rollout that runs changes nothing.
    const again = await portal.as('admin', { method: 'POST', url: `/v1/agentUpdatePolicies/${tenantId}/resume` });
    expect(again.statusCode).toBe(200);
    expect(again.json<AgentUpdatePolicy>().target).toEqual(resumed.json<AgentUpdatePolicy>().target);
  });

  it('calls an update silent when the agent does not report within the rollback minutes, and halts the rollout', async () => {
    const device = devices[5]!;
    await recordAgentVersion(portal.db, device, {
      agentVersion: '0.1.0',
      update: { packageVersionId: versionIds.get('0.2.0')!, outcome: 'Updating' },
    });
    expect(await haltSilentUpdates(portal.db, new Date(Date.now() + 60_000))).toBe(0);
    expect(await haltSilentUpdates(portal.db, new Date(Date.now() + 8 * 60_000))).toBe(1);
    const halted = await policy();
    expect(halted.target?.haltedReason).toContain('did not report within the rollback minutes');
    expect(await offer(devices[6]!, new Date(Date.now() + 6 * 60_000))).toBeNull();
    await portal.as('admin', { method: 'POST', url: `/v1/agentUpdatePolicies/${tenantId}/resume` });
  });

  it('keeps each tenant’s version to run for its configuration calls until the database announces a change', async () => {
    const targets = new AgentReleaseTargets(60_000);
    const kept = await targets.get(portal.db, devices[0]!.scope, tenantId);
    const saved = await savePolicy({ version: '0.1.0', rolloutPercent: 100, rollbackMinutes: 10 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await targets.get(portal.db, devices[0]!.scope, tenantId))?.version).toBe(kept?.version);
    targets.clear();
    expect((await targets.get(portal.db, devices[0]!.scope, tenantId))?.version).toBe('0.1.0');
    expect((await savePolicy({ version: null, rolloutPercent: 25, rollbackMinutes: 5 })).statusCode).toBe(200);
  });

  it('runs a pinned version: the devices that run another are offered it, the Latest no more', async () => {
    expect((await upload('0.3.0')).statusCode).toBe(200);
    const pioneer = devices.find((device) => rolloutBucket(device.deviceId) < 25)!;
    expect((await offer(pioneer))?.version).toBe('0.3.0');
    const pinned = await savePolicy({ version: '0.1.0', rolloutPercent: 100, rollbackMinutes: 10 });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json<AgentUpdatePolicy>()).toMatchObject({
      version: '0.1.0',
      target: { version: '0.1.0' },
      versions: [{ version: '0.3.0' }, { version: '0.2.0' }, { version: '0.1.0' }],
    });
    // A device that runs 0.2.0 is offered the pinned 0.1.0; the devices that run 0.1.0 nothing.
    await recordAgentVersion(portal.db, pioneer, { agentVersion: '0.2.0' });
    expect((await offer(pioneer))?.version).toBe('0.1.0');
    await recordAgentVersion(portal.db, devices[9]!, { agentVersion: '0.1.0' });
    expect(await offer(devices[9]!)).toBeNull();
  });
});
