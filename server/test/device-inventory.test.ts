import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_LIMITS, INVENTORY_MESSAGES, type AgentInventory } from '@cfs/contracts/agent';
import type { DeviceInventory } from '@cfs/contracts/devices';
import type { InstalledSoftwareRow } from '@cfs/contracts/software';
import { createEnrolledDevice, createUserIn, unique } from './factories.js';
import { bearer, createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

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
    const device = await createEnrolledDevice(portal);
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
    const device = await createEnrolledDevice(portal);
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
    const device = await createEnrolledDevice(portal);
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

describe('software across the fleet', () => {
  /** GET /v1/software as `user` with the query's options; the rows' device, name and version. */
  const list = async (user: string, query: Record<string, string>) => {
    const response = await portal.as(user, { method: 'GET', url: '/v1/software', query });
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json<{ value: InstalledSoftwareRow[] }>()
      .value.map((row) => `${row.deviceName} ${row.name} ${row.version}`);
  };

  it('finds the devices below a version, comparing versions as people read them, within the caller’s tenants', async () => {
    const marker = `ssl${unique()}`;
    const older = await createEnrolledDevice(portal, { machineName: 'older' });
    const newer = await createEnrolledDevice(portal, { tenantId: older.tenantId, machineName: 'newer' });
    const elsewhere = await createEnrolledDevice(portal, { machineName: 'elsewhere' });
    const versions: [typeof older, string][] = [
      [older, '3.0.11-1~deb12u2'],
      [newer, '3.0.13-1~deb12u1'],
      [elsewhere, '3.0.9'],
    ];
    for (const [device, version] of versions) {
      const sent = await reportAs(device.credential)(
        report([
          { name: marker, version, publisher: 'Debian' },
          { name: `${marker}-doc`, version: '10.0', publisher: null },
        ]),
      );
      expect(sent.statusCode, sent.body).toBe(200);
    }
    const mine = `tenantId in (${older.tenantId},${elsewhere.tenantId})`;
    // "3.0.9" is below "3.0.11…" and "3.0.13" as numbers, though not as text.
    expect(await list('admin', { $filter: `${mine} and name eq '${marker}' and version lt '3.0.13'` })).toEqual([
      `elsewhere ${marker} 3.0.9`,
      `older ${marker} 3.0.11-1~deb12u2`,
    ]);
    expect(await list('admin', { $filter: `${mine} and name eq '${marker}' and version ge '3.0.13'` })).toEqual([
      `newer ${marker} 3.0.13-1~deb12u1`,
    ]);
    expect(await list('admin', { $filter: `${mine} and name eq '${marker}'`, $orderby: 'version desc' })).toEqual([
      `newer ${marker} 3.0.13-1~deb12u1`,
      `older ${marker} 3.0.11-1~deb12u2`,
      `elsewhere ${marker} 3.0.9`,
    ]);
    // The search box's match, through the name's trigram index; "10.0" sorts after every "3.…".
    expect(
      await list('admin', { $filter: `${mine} and contains(tolower(name),'${marker}-doc') and version gt '9'` }),
    ).toHaveLength(3);

    // Staff of the first tenant see its two devices' rows, none of the other tenant's.
    const staff = `software-${unique()}`;
    await createUserIn(portal, staff, ['Devices:view'], older.tenantId);
    expect(await list(staff, { $filter: `name eq '${marker}'` })).toEqual([
      `older ${marker} 3.0.11-1~deb12u2`,
      `newer ${marker} 3.0.13-1~deb12u1`,
    ]);
    const others = await portal.as(staff, {
      method: 'GET',
      url: '/v1/software',
      query: { $filter: `tenantId eq ${elsewhere.tenantId}` },
    });
    expect(others.statusCode).toBe(200);
    expect(others.json()).toEqual({ value: [] });

    // The CSV export holds the same rows; a deleted device's software leaves the list.
    const csv = await portal.as('admin', {
      method: 'GET',
      url: '/v1/software/Export()',
      query: { $filter: `${mine} and name eq '${marker}' and version lt '3.0.13'` },
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(3);
    expect(csv.body).toContain('3.0.11-1~deb12u2');
    const deleted = await portal.as('admin', {
      method: 'DELETE',
      url: `/v1/devices/${older.deviceId}?__tenant__=${older.tenantId}`,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await list('admin', { $filter: `${mine} and name eq '${marker}'` })).toEqual([
      `elsewhere ${marker} 3.0.9`,
      `newer ${marker} 3.0.13-1~deb12u1`,
    ]);
  });

  it('refuses a field it does not have and a version compared with a number, naming them', async () => {
    const unknown = await portal.as('admin', {
      method: 'GET',
      url: '/v1/software',
      query: { $filter: "vendor eq 'x'" },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('vendor');
    const number = await portal.as('admin', { method: 'GET', url: '/v1/software', query: { $filter: 'version lt 3' } });
    expect(number.statusCode).toBe(400);
    expect(number.body).toContain('version');
  });
});
