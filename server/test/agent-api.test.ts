import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfiguration, EnrolmentResult } from '@cfs/contracts/agent';
import { FREQUENCY_TYPES, INSTALL_STATUSES, OPERATION_TYPES, PACKAGE_TYPES } from '@cfs/contracts/fleet';
import { prepareDemoAgent } from '../src/areas/agent/demo-agent.js';
import { hashCredential } from '../src/auth/machine-callers.js';
import { DEMO } from '../src/db/demo-ids.js';
import { fileStoreOf } from '../src/files/content-store.js';
import { createTenantAs, createTokenAs } from './factories.js';
import { bearer, createTestPortal, openSecondInstance, type TestPortal } from './harness.js';
import { fromSources, isAlive, until } from './processes.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

async function enrolWith(token: string, agentKey: string, machineName = 'agent-host') {
  return portal.app.inject({
    method: 'POST',
    url: '/v1/agent/enrol',
    headers: bearer(token),
    payload: { agentKey, machineName, operatingSystem: 'linux', architecture: 'x64', agentVersion: '0.1.0' },
  });
}

interface Fleet {
  tenantId: string;
  token: string;
  tokenGrantId: string;
  subscriptionId: string;
}

/** A tenant of its own with a subscription and an agent token. */
async function makeFleet(): Promise<Fleet> {
  const tenant = await createTenantAs(portal, 'admin');
  const subscription = await portal.as('admin', {
    method: 'PUT',
    url: '/v1/subscriptions',
    payload: { tenantId: tenant.tenantId, name: 'Production' },
  });
  expect(subscription.statusCode).toBe(200);
  const token = await createTokenAs(portal, 'admin', tenant.tenantId);
  return {
    tenantId: tenant.tenantId,
    token: token.generatedToken,
    tokenGrantId: token.tokenGrantId,
    subscriptionId: subscription.json<{ subscriptionId: string }>().subscriptionId,
  };
}

/** What promotion does: a device that keeps the pending row's key hash and token, and the pending row gone. */
async function promote(fleet: Fleet, agentKey: string): Promise<string> {
  const pending = await portal.db
    .selectFrom('pending_device')
    .selectAll()
    .where('agent_key_hash', '=', hashCredential(agentKey))
    .executeTakeFirstOrThrow();
  const device = await portal.db
    .insertInto('device')
    .values({
      tenant_id: fleet.tenantId,
      subscription_id: fleet.subscriptionId,
      name: pending.machine_name,
      machine_name: pending.machine_name,
      agent_key_hash: pending.agent_key_hash,
      token_grant_id: pending.token_grant_id,
      heartbeat_interval: 45,
    })
    .returning('device_id')
    .executeTakeFirstOrThrow();
  await portal.db.deleteFrom('pending_device').where('pending_device_id', '=', pending.pending_device_id).execute();
  return device.device_id;
}

async function enrolledDevice(fleet: Fleet): Promise<{ deviceId: string; credential: string; agentKey: string }> {
  const agentKey = randomBytes(32).toString('base64url');
  expect((await enrolWith(fleet.token, agentKey)).statusCode).toBe(200);
  const deviceId = await promote(fleet, agentKey);
  const result = (await enrolWith(fleet.token, agentKey)).json<EnrolmentResult>();
  if (result.status !== 'enrolled') throw new Error('not enrolled');
  return { deviceId, credential: result.credential, agentKey };
}

let catalogue: { operationId: string; packageId: string } | undefined;
async function operationOfCatalogue(): Promise<{ operationId: string; packageId: string }> {
  if (catalogue) return catalogue;
  const pkg = await portal.db
    .insertInto('package')
    .values({ name: `Agent checks ${randomUUID().slice(0, 6)}`, package_type_id: PACKAGE_TYPES.AgentLogic })
    .returning('package_id')
    .executeTakeFirstOrThrow();
  const operation = await portal.db
    .insertInto('operation')
    .values({
      package_id: pkg.package_id,
      name: 'Availability',
      frequency_type_ids: [1, 2, 3],
      operation_type_id: OPERATION_TYPES.Availability,
      operation_result_type_id: 2,
    })
    .returning('operation_id')
    .executeTakeFirstOrThrow();
  catalogue = { operationId: operation.operation_id, packageId: pkg.package_id };
  return catalogue;
}

async function addOperation(
  fleet: Fleet,
  deviceId: string,
  values: { frequency: number; completionToken?: string; parameters?: unknown[]; label?: string },
) {
  const { operationId } = await operationOfCatalogue();
  const row = await portal.db
    .insertInto('device_operation')
    .values({
      tenant_id: fleet.tenantId,
      device_id: deviceId,
      operation_id: operationId,
      label: values.label ?? 'Check',
      frequency_type_id: values.frequency,
      interval_seconds: 30,
      completion_token: values.completionToken ?? null,
      parameters: JSON.stringify(values.parameters ?? []),
    })
    .returning('device_operation_id')
    .executeTakeFirstOrThrow();
  return row.device_operation_id;
}

const configurationOf = (credential: string) =>
  portal.app.inject({ method: 'GET', url: '/v1/agent/configuration', headers: bearer(credential) });

describe('agent enrolment', () => {
  it('keeps an agent pending until promotion, refreshing its last ping, then hands it a device credential stored only as a hash', async () => {
    const fleet = await makeFleet();
    const agentKey = randomBytes(32).toString('base64url');
    const first = await enrolWith(fleet.token, agentKey, 'host-a');
    expect(first.statusCode).toBe(200);
    const pending = first.json<EnrolmentResult>();
    expect(pending.status).toBe('pending');
    const row = await portal.db
      .selectFrom('pending_device')
      .selectAll()
      .where('agent_key_hash', '=', hashCredential(agentKey))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      tenant_id: fleet.tenantId,
      machine_name: 'host-a',
      operating_system: 'linux',
      architecture: 'x64',
      token_grant_id: fleet.tokenGrantId,
    });
    expect(row.ip_address).toBeTruthy();

    const again = (await enrolWith(fleet.token, agentKey, 'host-a-renamed')).json<EnrolmentResult>();
    expect(again).toEqual(pending);
    const refreshed = await portal.db
      .selectFrom('pending_device')
      .selectAll()
      .where('agent_key_hash', '=', hashCredential(agentKey))
      .executeTakeFirstOrThrow();
    expect(refreshed.machine_name).toBe('host-a-renamed');
    expect(refreshed.last_ping.getTime()).toBeGreaterThanOrEqual(row.last_ping.getTime());

    const deviceId = await promote(fleet, agentKey);
    const enrolled = (await enrolWith(fleet.token, agentKey)).json<EnrolmentResult>();
    if (enrolled.status !== 'enrolled') throw new Error(`expected enrolled, got ${JSON.stringify(enrolled)}`);
    expect(enrolled.deviceId).toBe(deviceId);
    expect(enrolled.credential).toMatch(/^cfsd_/);
    const device = await portal.db
      .selectFrom('device')
      .select(['credential_hash'])
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(device.credential_hash).toBe(hashCredential(enrolled.credential));

    const configuration = await configurationOf(enrolled.credential);
    expect(configuration.statusCode).toBe(200);
    expect(configuration.json<AgentConfiguration>()).toMatchObject({
      deviceId,
      heartbeatIntervalSeconds: 45,
      loggingLevel: 'All',
      restartAgent: false,
      tracing: false,
    });
    const contacted = await portal.db
      .selectFrom('device')
      .select('last_contact')
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(contacted.last_contact).not.toBeNull();
  });

  it('refuses an agent key shorter than 32 characters with a field error, and enrolment with a device credential', async () => {
    const fleet = await makeFleet();
    const short = await enrolWith(fleet.token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json<{ errors: Record<string, string[]> }>().errors.agentKey).toBeDefined();
    const { credential } = await enrolledDevice(fleet);
    expect((await enrolWith(credential, randomBytes(32).toString('base64url'))).statusCode).toBe(403);
  });

  it('refuses a tenant token on device calls', async () => {
    const fleet = await makeFleet();
    expect((await configurationOf(fleet.token)).statusCode).toBe(403);
  });

  it('issuing a new credential on re-enrolment shuts out the previous one', async () => {
    const fleet = await makeFleet();
    const { credential, agentKey } = await enrolledDevice(fleet);
    const second = (await enrolWith(fleet.token, agentKey)).json<EnrolmentResult>();
    expect(second.status).toBe('enrolled');
    expect((await configurationOf(credential)).statusCode).toBe(401);
  });
});

describe('a device credential stops working', () => {
  it('at the next call once the token the device enrolled with is revoked, and enrolment with that token is refused', async () => {
    const fleet = await makeFleet();
    const { credential, agentKey } = await enrolledDevice(fleet);
    expect((await configurationOf(credential)).statusCode).toBe(200);
    expect(
      (await portal.as('admin', { method: 'PUT', url: `/v1/tokens/${fleet.tokenGrantId}/revoke` })).statusCode,
    ).toBe(200);
    const refused = await configurationOf(credential);
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ message: string }>().message).toBe('The token this device enrolled with has been revoked.');
    expect((await enrolWith(fleet.token, agentKey)).statusCode).toBe(401);
  });

  it('once the device is disabled, and enrolment does not hand a disabled device a credential', async () => {
    const fleet = await makeFleet();
    const { credential, deviceId, agentKey } = await enrolledDevice(fleet);
    await portal.db.updateTable('device').set({ enabled: false }).where('device_id', '=', deviceId).execute();
    // Written behind the portal's back: its cache of machine callers hears of it within moments.
    await portal.runtime.principals.sync();
    expect((await configurationOf(credential)).statusCode).toBe(401);
    expect(
      (
        await portal.app.inject({
          method: 'POST',
          url: '/v1/agent/logs',
          headers: bearer(credential),
          payload: { entries: [{ entryType: 'Info', detail: 'x' }] },
        })
      ).statusCode,
    ).toBe(401);
    expect((await enrolWith(fleet.token, agentKey)).statusCode).toBe(401);
  });

  it('once the device is deleted; enrolling again makes it pending, and it can be promoted anew', async () => {
    const fleet = await makeFleet();
    const { credential, deviceId, agentKey } = await enrolledDevice(fleet);
    expect((await portal.as('admin', { method: 'DELETE', url: `/v1/devices/${deviceId}` })).statusCode).toBe(200);
    expect((await configurationOf(credential)).statusCode).toBe(401);
    const again = (await enrolWith(fleet.token, agentKey)).json<EnrolmentResult>();
    expect(again.status).toBe('pending');
    if (again.status !== 'pending') return;
    const promoted = await portal.as('admin', {
      method: 'POST',
      url: '/v1/pendingdevices/batchpromote',
      payload: { pendingDeviceIds: [again.pendingDeviceId], subscriptionId: fleet.subscriptionId },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    const enrolled = (await enrolWith(fleet.token, agentKey)).json<EnrolmentResult>();
    expect(enrolled.status).toBe('enrolled');
    if (enrolled.status === 'enrolled') expect(enrolled.deviceId).not.toBe(deviceId);
  });
});

describe('one device cannot speak for another', () => {
  it('refuses logs and completion of another device’s operation, in the same tenant or another', async () => {
    const fleet = await makeFleet();
    const mine = await enrolledDevice(fleet);
    const neighbour = await enrolledDevice(fleet);
    const stranger = await enrolledDevice(await makeFleet());
    const token = randomUUID();
    const operationId = await addOperation(fleet, mine.deviceId, {
      frequency: FREQUENCY_TYPES.OnDemand,
      completionToken: token,
    });

    for (const other of [neighbour, stranger]) {
      const logs = await portal.app.inject({
        method: 'POST',
        url: `/v1/agent/operations/${operationId}/logs`,
        headers: bearer(other.credential),
        payload: { entries: [{ entryType: 'Info', detail: 'forged' }] },
      });
      expect(logs.statusCode).toBe(404);
      const complete = await portal.app.inject({
        method: 'POST',
        url: `/v1/agent/operations/${operationId}/complete`,
        headers: bearer(other.credential),
        payload: { completionToken: token },
      });
      expect(complete.statusCode).toBe(404);
    }
    expect(
      await portal.db
        .selectFrom('operation_log')
        .select('log_entry_id')
        .where('device_operation_id', '=', operationId)
        .execute(),
    ).toEqual([]);

    const own = await portal.app.inject({
      method: 'POST',
      url: `/v1/agent/operations/${operationId}/logs`,
      headers: bearer(mine.credential),
      payload: { entries: [{ entryType: 'Result', detail: 'HTTP 200 in 12 ms' }] },
    });
    expect(own.statusCode).toBe(204);
    const logs = await portal.db
      .selectFrom('operation_log')
      .select(['detail', 'tenant_id'])
      .where('device_operation_id', '=', operationId)
      .execute();
    expect(logs).toEqual([{ detail: 'HTTP 200 in 12 ms', tenant_id: fleet.tenantId }]);

    const deviceLog = await portal.app.inject({
      method: 'POST',
      url: '/v1/agent/logs',
      headers: bearer(mine.credential),
      payload: { entries: [{ entryType: 'Info', detail: 'agent started' }] },
    });
    expect(deviceLog.statusCode).toBe(204);
    const deviceLogs = await portal.db
      .selectFrom('device_log')
      .select(['device_id', 'detail'])
      .where('device_id', '=', mine.deviceId)
      .execute();
    expect(deviceLogs).toEqual([{ device_id: mine.deviceId, detail: 'agent started' }]);
  });

  it('takes dates only as ISO 8601 instants, naming the field, and keeps a script run whose exit code and duration pass 32 bits', async () => {
    const fleet = await makeFleet();
    const mine = await enrolledDevice(fleet);
    const post = (url: string, payload: object) =>
      portal.app.inject({ method: 'POST', url, headers: bearer(mine.credential), payload });
    for (const created of [null, false, 1, '1', '2026', 'December 2, 2026', '+275760-09-13T00:00:00Z']) {
      const refused = await post('/v1/agent/logs', { entries: [{ created, entryType: 'Info', detail: 'dated' }] });
      expect(refused.statusCode, JSON.stringify(created)).toBe(400);
      expect(Object.keys(refused.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['entries.0.created']);
    }
    expect(
      await portal.db.selectFrom('device_log').select('detail').where('device_id', '=', mine.deviceId).execute(),
    ).toEqual([]);

    const { packageId } = await operationOfCatalogue();
    const script = await portal.db
      .insertInto('operation')
      .values({
        package_id: packageId,
        name: `Script ${randomUUID().slice(0, 6)}`,
        frequency_type_ids: [FREQUENCY_TYPES.OnDemand],
        operation_type_id: OPERATION_TYPES.Script,
        operation_result_type_id: 2,
      })
      .returning('operation_id')
      .executeTakeFirstOrThrow();
    const { device_operation_id: deviceOperationId } = await portal.db
      .insertInto('device_operation')
      .values({
        tenant_id: fleet.tenantId,
        device_id: mine.deviceId,
        operation_id: script.operation_id,
        label: 'Crashing script',
        frequency_type_id: FREQUENCY_TYPES.OnDemand,
        interval_seconds: 30,
        parameters: JSON.stringify([]),
      })
      .returning('device_operation_id')
      .executeTakeFirstOrThrow();
    const run = {
      started: '2026-11-29T12:00:00Z',
      durationMs: 2_147_483_648,
      sha256: null,
      exitCode: 3_221_225_477,
      timedOut: false,
      refused: null,
      stdout: '',
      stderr: 'access violation',
      truncated: false,
    };
    const url = `/v1/agent/operations/${deviceOperationId}/scriptruns`;
    for (const started of [null, true, 1, '1', 'garbage']) {
      const refused = await post(url, { ...run, started });
      expect(refused.statusCode, JSON.stringify(started)).toBe(400);
      expect(Object.keys(refused.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['started']);
    }
    expect((await post(url, run)).statusCode).toBe(204);
    const runs = await portal.as('admin', {
      method: 'GET',
      url: `/v1/deviceOperations/${deviceOperationId}/scriptruns`,
    });
    expect(runs.json<{ exitCode: number; durationMs: number; started: string }[]>()).toEqual([
      expect.objectContaining({
        exitCode: 3_221_225_477,
        durationMs: 2_147_483_648,
        started: '2026-11-29T12:00:00.000Z',
      }),
    ]);
  });

  it('serves a package version only to a device that is meant to install it', async () => {
    const fleet = await makeFleet();
    const mine = await enrolledDevice(fleet);
    const other = await enrolledDevice(fleet);
    const { packageId } = await operationOfCatalogue();
    const content = Buffer.from(`agent plug-in ${randomUUID()}`);
    const { sha256: sha } = await portal.db
      .transaction()
      .execute((trx) => fileStoreOf(portal.config).put(trx, content));
    const version = await portal.db
      .insertInto('package_version')
      .values({
        package_id: packageId,
        version: `1.0.${Date.now() % 100000}`,
        label: 'first',
        package_version_status_id: 1,
        file_sha256: sha,
        file_name: 'plugin.zip',
        file_size: content.length,
      })
      .returning('package_version_id')
      .executeTakeFirstOrThrow();
    await portal.db
      .insertInto('device_installation')
      .values({
        device_id: mine.deviceId,
        package_id: packageId,
        tenant_id: fleet.tenantId,
        package_version_id: version.package_version_id,
        install_status_id: INSTALL_STATUSES.Pending,
      })
      .execute();

    const configuration = (await configurationOf(mine.credential)).json<AgentConfiguration>();
    expect(configuration.packages).toEqual([
      expect.objectContaining({
        packageId,
        packageVersionId: version.package_version_id,
        sha256: sha,
        size: content.length,
      }),
    ]);
    const url = new URL(configuration.packages[0]!.downloadUrl).pathname;
    const download = await portal.app.inject({ method: 'GET', url, headers: bearer(mine.credential) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(content)).toBe(true);
    expect((await portal.app.inject({ method: 'GET', url, headers: bearer(other.credential) })).statusCode).toBe(404);

    const report = await portal.app.inject({
      method: 'POST',
      url: `/v1/agent/installations/${packageId}`,
      headers: bearer(mine.credential),
      payload: { packageVersionId: version.package_version_id, status: 'Installed' },
    });
    expect(report.statusCode).toBe(204);
    const installation = await portal.db
      .selectFrom('device_installation')
      .selectAll()
      .where('device_id', '=', mine.deviceId)
      .executeTakeFirstOrThrow();
    expect(installation).toMatchObject({
      install_status_id: INSTALL_STATUSES.Installed,
      installed_package_version_id: version.package_version_id,
    });
    const forged = await portal.app.inject({
      method: 'POST',
      url: `/v1/agent/installations/${packageId}`,
      headers: bearer(other.credential),
      payload: { packageVersionId: version.package_version_id, status: 'Failed' },
    });
    expect(forged.statusCode).toBe(404);
  });
});

describe('operations for the agent', () => {
  it('resolves a secured value from the device tenant’s secrets, leaves other sources for the agent, and sends on-demand operations only while queued', async () => {
    const fleet = await makeFleet();
    const { deviceId, credential } = await enrolledDevice(fleet);
    const secret = await portal.as('admin', {
      method: 'PUT',
      url: `/v1/tenants/${fleet.tenantId}/secrets`,
      payload: { name: 'probe.password', value: 's3cret!' },
    });
    expect(secret.statusCode).toBe(200);
    const recurring = await addOperation(fleet, deviceId, {
      frequency: FREQUENCY_TYPES.Recurring,
      label: 'A recurring',
      parameters: [
        { Name: 'Url', Source: 'PortalEntry', Value: 'https://example.test/' },
        { Name: 'Password', Source: 'SecuredValue', Value: 'probe.password' },
        { Name: 'Missing', Source: 'SecuredValue', Value: 'no.such.secret' },
        { Name: 'Home', Source: 'EnvironmentVariable', Value: 'HOME' },
      ],
    });
    await addOperation(fleet, deviceId, { frequency: FREQUENCY_TYPES.OnDemand, label: 'B idle' });
    const token = randomUUID();
    const queued = await addOperation(fleet, deviceId, {
      frequency: FREQUENCY_TYPES.OnDemand,
      label: 'C queued',
      completionToken: token,
    });

    const configuration = (await configurationOf(credential)).json<AgentConfiguration>();
    expect(configuration.operations.map((op) => op.label)).toEqual(['A recurring', 'C queued']);
    const [first, second] = configuration.operations;
    expect(first).toMatchObject({
      deviceOperationId: recurring,
      completionToken: null,
      operationTypeId: OPERATION_TYPES.Availability,
    });
    expect(first!.parameters).toEqual([
      { name: 'Url', source: 'PortalEntry', value: 'https://example.test/' },
      { name: 'Password', source: 'SecuredValue', value: 's3cret!' },
      { name: 'Missing', source: 'SecuredValue', value: null },
      { name: 'Home', source: 'EnvironmentVariable', value: 'HOME' },
    ]);
    expect(second).toMatchObject({ deviceOperationId: queued, completionToken: token });

    // Another tenant's secret of the same name is not this device's.
    const otherFleet = await makeFleet();
    await portal.as('admin', {
      method: 'PUT',
      url: `/v1/tenants/${otherFleet.tenantId}/secrets`,
      payload: { name: 'only.there', value: 'not yours' },
    });
    const other = await enrolledDevice(fleet);
    await addOperation(fleet, other.deviceId, {
      frequency: FREQUENCY_TYPES.Recurring,
      parameters: [{ Name: 'P', Source: 'SecuredValue', Value: 'only.there' }],
    });
    const otherConfiguration = (await configurationOf(other.credential)).json<AgentConfiguration>();
    expect(otherConfiguration.operations[0]!.parameters).toEqual([{ name: 'P', source: 'SecuredValue', value: null }]);
  });

  it('refuses a wrong completion token with a field error, and completes with the right one once', async () => {
    const fleet = await makeFleet();
    const { deviceId, credential } = await enrolledDevice(fleet);
    const token = randomUUID();
    const operationId = await addOperation(fleet, deviceId, {
      frequency: FREQUENCY_TYPES.OnDemand,
      completionToken: token,
    });
    const complete = (completionToken: string) =>
      portal.app.inject({
        method: 'POST',
        url: `/v1/agent/operations/${operationId}/complete`,
        headers: bearer(credential),
        payload: { completionToken },
      });
    /** Whether the operation is complete, and the token it still waits for. */
    const stored = () =>
      portal.db
        .selectFrom('device_operation')
        .select(['operation_complete', 'completion_token'])
        .where('device_operation_id', '=', operationId)
        .executeTakeFirstOrThrow();

    const wrong = await complete(randomUUID());
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      message: 'The completion token does not match.',
      errors: { completionToken: ['The completion token does not match.'] },
    });
    expect(await stored()).toEqual({ operation_complete: false, completion_token: token });

    expect((await complete(token)).statusCode).toBe(204);
    expect(await stored()).toEqual({ operation_complete: true, completion_token: null });
    expect((await complete(token)).statusCode).toBe(400);
    expect((await configurationOf(credential)).json<AgentConfiguration>().operations).toEqual([]);
  });

  it('tells the agent to restart and clears the flag when it acknowledges; reports tracing and the logging level', async () => {
    const fleet = await makeFleet();
    const { deviceId, credential } = await enrolledDevice(fleet);
    await portal.db
      .updateTable('device')
      .set({ restart_agent_flag: true, trace_expiration: new Date(Date.now() + 600_000), device_logging_level_id: 1 })
      .where('device_id', '=', deviceId)
      .execute();
    expect((await configurationOf(credential)).json<AgentConfiguration>()).toMatchObject({
      restartAgent: true,
      tracing: true,
      loggingLevel: 'None',
    });
    expect(
      (await portal.app.inject({ method: 'POST', url: '/v1/agent/restart/acknowledge', headers: bearer(credential) }))
        .statusCode,
    ).toBe(204);
    expect((await configurationOf(credential)).json<AgentConfiguration>().restartAgent).toBe(false);
    const audit = await portal.db
      .selectFrom('audit_event')
      .select(['action', 'actor_name'])
      .where('entity_id', '=', deviceId)
      .where('action', '=', 'restart-acknowledged')
      .execute();
    expect(audit).toEqual([{ action: 'restart-acknowledged', actor_name: `device ${deviceId}` }]);
  });
});

describe('a configuration call held until something changes', () => {
  /** The configuration call as the agent makes it: answered when it is no longer `known`, held up to `wait` s. */
  const heldCall = (credential: string, known: string, wait: number, app = portal.app) =>
    app.inject({
      method: 'GET',
      url: '/v1/agent/configuration',
      headers: { ...bearer(credential), 'if-none-match': known, prefer: `wait=${wait}` },
    });

  it('answers at once and tagged without the headers, and 304 once the wait is over when nothing changed', async () => {
    const fleet = await makeFleet();
    const { credential } = await enrolledDevice(fleet);
    const first = await configurationOf(credential);
    expect(first.statusCode).toBe(200);
    const tag = String(first.headers.etag);
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['preference-applied']).toBeUndefined();
    // A tag that is no longer the configuration's is answered at once, saying such calls are held.
    const stale = await heldCall(credential, '"old"', 5);
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['preference-applied']).toBe('wait=5');

    const started = Date.now();
    const held = await heldCall(credential, tag, 1);
    expect(held.statusCode).toBe(304);
    expect(held.headers['preference-applied']).toBe('wait=1');
    expect(held.headers.etag).toBe(tag);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('answers the moment an operator asks the device to restart, also when the request comes through another instance', async () => {
    const fleet = await makeFleet();
    const { deviceId, credential } = await enrolledDevice(fleet);
    const other = await enrolledDevice(fleet);
    const tag = String((await configurationOf(credential)).headers.etag);
    const otherTag = String((await configurationOf(other.credential)).headers.etag);
    const second = await openSecondInstance(portal);
    try {
      const started = Date.now();
      const held = heldCall(credential, tag, 15, second.app);
      const untouched = heldCall(other.credential, otherTag, 2, second.app);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const restart = await portal.as('admin', {
        method: 'POST',
        url: `/v1/devices/${deviceId}/restartagent?__tenant__=${fleet.tenantId}`,
      });
      expect(restart.statusCode, restart.body).toBe(200);
      const answer = await held;
      expect(answer.statusCode).toBe(200);
      expect(answer.json<AgentConfiguration>().restartAgent).toBe(true);
      expect(answer.headers.etag).not.toBe(tag);
      expect(answer.headers['preference-applied']).toBe('wait=15');
      expect(Date.now() - started).toBeLessThan(5_000);
      // Another device's change does not answer this device's call.
      expect((await untouched).statusCode).toBe(304);
    } finally {
      await second.close();
    }
  });

  it('answers when an operation is queued for the device while the call is held', async () => {
    const fleet = await makeFleet();
    const { deviceId, credential } = await enrolledDevice(fleet);
    const tag = String((await configurationOf(credential)).headers.etag);
    const held = heldCall(credential, tag, 15);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await addOperation(fleet, deviceId, {
      frequency: FREQUENCY_TYPES.OnDemand,
      completionToken: randomUUID(),
      label: 'Run now',
    });
    const answer = await held;
    expect(answer.statusCode).toBe(200);
    expect(answer.json<AgentConfiguration>().operations.map((op) => op.label)).toEqual(['Run now']);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('agent downloads', () => {
  it('says clearly when an executable has not been built, and knows no other file names', async () => {
    const missing = await createTestPortal({ AGENT_DIST: path.join(portal.config.dataDir, 'no-agent-here') });
    try {
      const response = await missing.app.inject({ method: 'GET', url: '/downloads/agent/cfs-agent-linux-x64' });
      expect(response.statusCode).toBe(404);
      expect(response.json<{ message: string }>().message).toMatch(/has not been built/);
    } finally {
      await missing.close();
    }
    expect((await portal.app.inject({ method: 'GET', url: '/downloads/agent/..%2Fpackage.json' })).statusCode).toBe(
      404,
    );
  });

  it('serves a built executable without a caller', async () => {
    const dist = path.join(portal.config.dataDir, 'agent-dist');
    await fs.mkdir(dist, { recursive: true });
    await fs.writeFile(path.join(dist, 'cfs-agent-win-x64.exe'), 'MZ fake');
    const served = await createTestPortal({ AGENT_DIST: dist });
    try {
      const response = await served.app.inject({ method: 'GET', url: '/downloads/agent/cfs-agent-win-x64.exe' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('MZ fake');
      expect(response.headers['content-disposition']).toContain('cfs-agent-win-x64.exe');
    } finally {
      await served.close();
    }
  });
});

describe('the demo agent', () => {
  it('is made once in Contoso with a Metric and an Availability check of the portal, and its agent enrols at once', async () => {
    const first = await prepareDemoAgent(portal.db, portal.config);
    const second = await prepareDemoAgent(portal.db, portal.config);
    if (!first || !second) throw new Error('no demo agent');
    expect(second).toEqual(first);
    const { agentKey } = JSON.parse(await fs.readFile(path.join(first.dataDir, 'identity.json'), 'utf8')) as {
      agentKey: string;
    };
    if (process.platform !== 'win32')
      expect((await fs.stat(path.join(first.dataDir, 'token'))).mode & 0o777).toBe(0o600);

    const devices = await portal.db
      .selectFrom('device')
      .select(['device_id', 'tenant_id', 'subscription_id'])
      .where('agent_key_hash', '=', hashCredential(agentKey))
      .execute();
    expect(devices).toEqual([
      { device_id: expect.any(String), tenant_id: DEMO.contoso, subscription_id: DEMO.contosoProduction },
    ]);
    const result = (await enrolWith(first.token, agentKey)).json<EnrolmentResult>();
    if (result.status !== 'enrolled') throw new Error('the demo agent should not wait for promotion');
    const configuration = (await configurationOf(result.credential)).json<AgentConfiguration>();
    expect(
      configuration.operations.map((op) => [op.label, op.operationName, op.frequencyTypeId, op.intervalSeconds]),
    ).toEqual([
      ['CPU', 'Metric', FREQUENCY_TYPES.Recurring, 30],
      ['Portal health', 'Availability', FREQUENCY_TYPES.Recurring, 30],
    ]);
    expect(configuration.operations[1]!.parameters).toContainEqual({
      name: 'Url',
      source: 'PortalEntry',
      value: 'http://portal.test/healthz',
    });
  });

  it('stops when the portal that started it is killed with SIGKILL, so the next start runs the only one', async () => {
    const demo = await prepareDemoAgent(portal.db, portal.config);
    if (!demo) throw new Error('no demo agent');
    const address = await portal.app.listen({ port: 0, host: '127.0.0.1' });
    const holder = spawn(
      process.execPath,
      fromSources(path.join(import.meta.dirname, 'fixtures', 'hold-demo-agent.ts'), address, demo.dataDir, demo.token),
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let agentPid: number | undefined;
    try {
      agentPid = await new Promise<number>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => {
          const started = /started \(pid (\d+)\)/.exec(chunk.toString());
          if (started) resolve(Number(started[1]));
        });
        holder.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
      });
      // The agent is at work: enrolled, and in contact with the portal.
      const { agentKey } = JSON.parse(await fs.readFile(path.join(demo.dataDir, 'identity.json'), 'utf8')) as {
        agentKey: string;
      };
      const inContact = async () =>
        (
          await portal.db
            .selectFrom('device')
            .select('last_contact')
            .where('agent_key_hash', '=', hashCredential(agentKey))
            .executeTakeFirst()
        )?.last_contact != null;
      await until(inContact, 'the demo agent to report');
      holder.kill('SIGKILL');
      const pid = agentPid;
      await until(() => !isAlive(pid), 'the agent to stop once its portal was gone', 15_000);
    } finally {
      holder.kill('SIGKILL');
      if (agentPid !== undefined && isAlive(agentPid)) process.kill(agentPid, 'SIGKILL');
    }
  });
});
