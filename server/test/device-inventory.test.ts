import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_LIMITS, INVENTORY_MESSAGES, type AgentInventory, type EnrolmentResult } from '@cfs/contracts/agent';
import type { DeviceInventory } from '@cfs/contracts/devices';
import { createTenantAs, createTokenAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A tenant of its own and a device enrolled into it through the agent API, with its credential. */
async function enrolledDevice() {
  const tenant = await createTenantAs(portal, 'admin');
  const subscription = await portal.as('admin', {
    method: 'PUT',
    url: '/v1/subscriptions',
    payload: { tenantId: tenant.tenantId, name: 'Production' },
  });
  const token = (await createTokenAs(portal, 'admin', tenant.tenantId)).generatedToken;
  const agentKey = randomBytes(32).toString('base64url');
  const enrol = async () =>
    (
      await portal.app.inject({
        method: 'POST',
        url: '/v1/agent/enrol',
        headers: bearer(token),
        payload: {
          agentKey,
          machineName: 'inv-host',
          operatingSystem: 'linux',
          architecture: 'x64',
          agentVersion: '0.1.0',
        },
      })
    ).json<EnrolmentResult>();
  const pending = await enrol();
  if (pending.status !== 'pending') throw new Error('expected a pending device');
  const promoted = await portal.as('admin', {
    method: 'POST',
    url: '/v1/pendingdevices/batchpromote',
    payload: {
      pendingDeviceIds: [pending.pendingDeviceId],
      subscriptionId: subscription.json<{ subscriptionId: string }>().subscriptionId,
    },
  });
  expect(promoted.statusCode, promoted.body).toBe(200);
  const enrolled = await enrol();
  if (enrolled.status !== 'enrolled') throw new Error('expected an enrolled device');
  return { tenantId: tenant.tenantId, deviceId: enrolled.deviceId, credential: enrolled.credential };
}

const report = (software: AgentInventory['software'], os: Partial<AgentInventory['os']> = {}): AgentInventory => ({
  hardware: {
    cpuModel: 'Example CPU 3.2 GHz',
    cores: 8,
    memoryBytes: 16 * 1024 ** 3,
    disks: [{ name: 'sda', sizeBytes: 512e9 }],
  },
  os: { name: 'Debian GNU/Linux', version: '12', build: '12.7', pendingPatches: 3, ...os },
  software,
});

/** POST /v1/agent/inventory with a device's credential. */
const reportAs = (credential: string) => (body: AgentInventory | Record<string, unknown>) =>
  portal.app.inject({ method: 'POST', url: '/v1/agent/inventory', headers: bearer(credential), payload: body });

describe('device inventory', () => {
  it('keeps the latest report per device and, from the second on, a history of what each one changed', async () => {
    const device = await enrolledDevice();
    const send = reportAs(device.credential);
    const read = async () => {
      const response = await portal.as('admin', {
        method: 'GET',
        url: `/v1/devices/${device.deviceId}/inventory?__tenant__=${device.tenantId}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<DeviceInventory>();
    };
    expect(await read()).toEqual({
      reported: null,
      changed: null,
      hardware: null,
      os: null,
      software: [],
      changes: [],
    });

    const first = await send(
      report([
        { name: 'openssl', version: '3.0.11-1~deb12u2', publisher: 'Debian OpenSSL Team' },
        { name: 'curl', version: '7.88.1-10+deb12u5', publisher: null },
      ]),
    );
    expect(first.statusCode, first.body).toBe(200);
    // The first report is the history's starting point, not two changes.
    expect(first.json()).toEqual({ changes: 0 });
    const once = await read();
    expect(once.os).toEqual({ name: 'Debian GNU/Linux', version: '12', build: '12.7', pendingPatches: 3 });
    expect(once.hardware?.cores).toBe(8);
    expect(once.software).toEqual([
      { name: 'curl', version: '7.88.1-10+deb12u5', publisher: null },
      { name: 'openssl', version: '3.0.11-1~deb12u2', publisher: 'Debian OpenSSL Team' },
    ]);

    // The same report again changes nothing; then openssl is upgraded, curl removed, jq added and the OS moves on.
    expect((await send(report(once.software))).json()).toEqual({ changes: 0 });
    const second = await send(
      report(
        [
          { name: 'openssl', version: '3.0.13-1~deb12u1', publisher: 'Debian OpenSSL Team' },
          { name: 'jq', version: '1.6-2.1', publisher: null },
        ],
        { build: '12.8', pendingPatches: 0 },
      ),
    );
    expect(second.json()).toEqual({ changes: 4 });
    const twice = await read();
    expect(twice.software.map((item) => `${item.name} ${item.version}`)).toEqual([
      'jq 1.6-2.1',
      'openssl 3.0.13-1~deb12u1',
    ]);
    expect(
      twice.changes.slice(0, 4).map(({ item, name, change, from, to }) => ({ item, name, change, from, to })),
    ).toEqual(
      expect.arrayContaining([
        {
          item: 'os',
          name: 'Debian GNU/Linux',
          change: 'changed',
          from: 'Debian GNU/Linux 12 12.7',
          to: 'Debian GNU/Linux 12 12.8',
        },
        { item: 'software', name: 'openssl', change: 'changed', from: '3.0.11-1~deb12u2', to: '3.0.13-1~deb12u1' },
        { item: 'software', name: 'curl', change: 'removed', from: '7.88.1-10+deb12u5', to: null },
        { item: 'software', name: 'jq', change: 'added', from: null, to: '1.6-2.1' },
      ]),
    );
    expect(twice.changes).toHaveLength(4);
    expect(twice.os?.pendingPatches).toBe(0);
  });

  it('refuses a report with a name twice or a field it does not know, naming it, and keeps nothing of it', async () => {
    const device = await enrolledDevice();
    const send = reportAs(device.credential);
    const twice = await send(
      report([
        { name: 'openssl', version: '1', publisher: null },
        { name: 'openssl', version: '2', publisher: null },
      ]),
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain(INVENTORY_MESSAGES.softwareNamesUnique);
    const unknown = await send({ ...report([]), serial: 'X1' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('serial');
    const stored = await portal.db
      .selectFrom('device_inventory')
      .select('device_id')
      .where('device_id', '=', device.deviceId)
      .execute();
    expect(stored).toEqual([]);
  });

  it('takes a full report, larger than the usual body limit, and refuses one entry more', async () => {
    const device = await enrolledDevice();
    const send = reportAs(device.credential);
    const full = Array.from({ length: INVENTORY_LIMITS.software }, (_, index) => ({
      name: `package-${String(index).padStart(5, '0')}-${'n'.repeat(150)}`,
      version: `1.${index}.0-${'v'.repeat(60)}`,
      publisher: `Publisher ${'p'.repeat(120)}`,
    }));
    const body = report(full);
    expect(JSON.stringify(body).length).toBeGreaterThan(5 * 1024 * 1024);
    const accepted = await send(body);
    expect(accepted.statusCode, accepted.body.slice(0, 300)).toBe(200);
    const stored = await portal.db
      .selectFrom('device_software')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('device_id', '=', device.deviceId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.count)).toBe(INVENTORY_LIMITS.software);
    const over = await send(report([...full, { name: 'one-more', version: '1', publisher: null }]));
    expect(over.statusCode).toBe(400);
  });
});
