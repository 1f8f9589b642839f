import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_MESSAGES } from '@cfs/contracts/devices';
import {
  EMPTY_GUID,
  FLEET_MESSAGES,
  INSTALL_STATUSES,
  OPERATING_SYSTEMS,
  PACKAGE_TYPES,
  PACKAGE_VERSION_STATUSES,
} from '@cfs/contracts/fleet';
import { devicesBase } from '../src/areas/devices/queries.js';
import { deviceEntity } from '../src/areas/devices/resource.js';
import { DEMO } from '../src/db/demo-ids.js';
import { buildListSql, executeListStatement } from '../src/odata/list-query-sql.js';
import { parseListQuery, type ListQueryInput } from '../src/odata/list-query.js';
import { createDevice } from './factories.js';
import { auditTrail, createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

type Row = Record<string, unknown>;
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
const contosoDevice = (values: Parameters<typeof createDevice>[3] = {}) =>
  createDevice(portal, DEMO.contoso, DEMO.contosoProduction, values);
const list = async (user: string, query = '') => {
  const response = await portal.as(user, { method: 'GET', url: `/v1/devices?$count=true&$top=100${query}` });
  expect(response.statusCode).toBe(200);
  return response.json<{ '@odata.count': number; value: Row[] }>();
};
const input = (values: Row = {}) => ({
  name: 'Edited',
  description: 'A device',
  heartbeatInterval: 60,
  tenantId: DEMO.contoso,
  subscriptionId: DEMO.contosoProduction,
  ...values,
});
const heartbeat = (deviceId: string, tenantId: string, timestamp: Date, metrics: unknown) =>
  portal.db
    .insertInto('packet_latest')
    .values({
      entity_id: deviceId,
      tenant_id: tenantId,
      timestamp,
      message: JSON.stringify({ entityId: deviceId, Metrics: metrics }),
    })
    .onConflict((conflict) =>
      conflict
        .column('entity_id')
        .doUpdateSet({ timestamp, message: JSON.stringify({ entityId: deviceId, Metrics: metrics }) }),
    )
    .execute();

async function createPackage(tenantId: string | null, name: string, operatingSystemIds: number[], versions: string[]) {
  const pkg = await portal.db
    .insertInto('package')
    .values({
      tenant_id: tenantId,
      name,
      package_type_id: PACKAGE_TYPES.Watcher,
      operating_system_ids: operatingSystemIds,
    })
    .returning('package_id')
    .executeTakeFirstOrThrow();
  const ids: string[] = [];
  for (const [index, version] of versions.entries()) {
    // A package has one Latest version: the last one given; the earlier ones are archived.
    const status = index === versions.length - 1 ? PACKAGE_VERSION_STATUSES.Latest : PACKAGE_VERSION_STATUSES.Archived;
    const row = await portal.db
      .insertInto('package_version')
      .values({
        package_id: pkg.package_id,
        version,
        label: version,
        package_version_status_id: status,
        file_sha256: '0'.repeat(64),
        file_name: 'x.zip',
        file_size: 1,
      })
      .returning('package_version_id')
      .executeTakeFirstOrThrow();
    ids.push(row.package_version_id);
  }
  return { packageId: pkg.package_id, versionIds: ids };
}

describe('the devices list', () => {
  it('lists the caller tenant devices by name with the live values of their latest packet, N/A as null', async () => {
    const live = await contosoDevice({ name: 'aa-live-device' });
    const silent = await contosoDevice({ name: 'aa-silent-device' });
    const stamp = new Date('2026-01-02T03:04:05.000Z');
    await heartbeat(live.deviceId, DEMO.contoso, stamp, { CpuPercent: 42.5, MemoryPercent: 61 });
    const { value } = await list('operator', `&$filter=startswith(name,'aa-')&$expand=location`);
    expect(value.map((row) => row.name)).toEqual(['aa-live-device', 'aa-silent-device']);
    expect(value[0]).toMatchObject({
      deviceId: live.deviceId,
      cpuPercent: 42.5,
      memoryPercent: 61,
      packetTimestamp: stamp.toISOString(),
    });
    expect(value[1]).toMatchObject({
      deviceId: silent.deviceId,
      cpuPercent: null,
      memoryPercent: null,
      packetTimestamp: null,
    });
    // The list reads its rows in SQL, one device from its row (deviceEntity): they agree.
    for (const row of value) {
      const one = await portal.as('operator', { method: 'GET', url: `/v1/devices/${String(row.deviceId)}` });
      expect(one.json()).toEqual(row);
    }
  });

  it('reads a metric that is not a number as missing instead of failing the list', async () => {
    const odd = await contosoDevice({ name: 'ab-odd-metrics' });
    await heartbeat(odd.deviceId, DEMO.contoso, new Date(), { CpuPercent: 'high', MemoryPercent: null });
    const { value } = await list('operator', `&$filter=name eq 'ab-odd-metrics'`);
    expect(value[0]).toMatchObject({ cpuPercent: null, memoryPercent: null });
  });

  it('leaves out deleted devices and searches by name, case-insensitively', async () => {
    const kept = await contosoDevice({ name: 'Search-Target-Kept' });
    const gone = await contosoDevice({ name: 'Search-Target-Gone' });
    await portal.db.updateTable('device').set({ is_deleted: true }).where('device_id', '=', gone.deviceId).execute();
    const { value } = await list('operator', `&$filter=contains(tolower(name),'search-target')`);
    expect(value.map((row) => row.deviceId)).toEqual([kept.deviceId]);
  });

  it("shows operator2 of Fabrikam none of Contoso's devices", async () => {
    const device = await contosoDevice({ name: 'contoso-only' });
    const { value } = await list('operator2');
    expect(value.some((row) => row.tenantId === DEMO.contoso)).toBe(false);
    expect(value.some((row) => row.deviceId === device.deviceId)).toBe(false);
  });

  it('refuses a user without the Devices permission', async () => {
    expect((await portal.as('enduser', { method: 'GET', url: '/v1/devices' })).statusCode).toBe(403);
  });
});

describe('editing a device', () => {
  it('saves the fields and records the change in the audit trail', async () => {
    const device = await contosoDevice();
    const response = await portal.as('operator', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}`,
      payload: input({ name: 'Renamed device', heartbeatInterval: 120, subscriptionId: DEMO.contosoStaging }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Renamed device',
      heartbeatInterval: 120,
      subscriptionId: DEMO.contosoStaging,
      description: 'A device',
    });
    const audit = await auditTrail(portal.db, 'device', device.deviceId);
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0]?.changes)).toContain('Renamed device');
  });

  it.each([
    ['name', { name: '  ' }, DEVICE_MESSAGES.nameRequired],
    ['description', { description: 'x'.repeat(501) }, DEVICE_MESSAGES.descriptionTooLong],
    ['heartbeatInterval', { heartbeatInterval: -1 }, DEVICE_MESSAGES.heartbeatRange],
    ['heartbeatInterval', { heartbeatInterval: 1_000_000_000 }, DEVICE_MESSAGES.heartbeatRange],
    ['heartbeatInterval', { heartbeatInterval: null }, DEVICE_MESSAGES.heartbeatRange],
    ['tenantId', { tenantId: undefined }, DEVICE_MESSAGES.tenantRequired],
    ['subscriptionId', { subscriptionId: '' }, DEVICE_MESSAGES.subscriptionRequired],
  ])('refuses a bad %s with its message', async (field, values, message) => {
    const device = await contosoDevice();
    const response = await portal.as('operator', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}`,
      payload: input(values),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: Record<string, string[]> }>().errors[field]).toEqual([message]);
  });

  it('accepts a description of 500 characters and heartbeats of 0 and 999999999', async () => {
    const device = await contosoDevice();
    for (const values of [{ description: 'x'.repeat(500), heartbeatInterval: 0 }, { heartbeatInterval: 999_999_999 }]) {
      expect(
        (await portal.as('operator', { method: 'POST', url: `/v1/devices/${device.deviceId}`, payload: input(values) }))
          .statusCode,
      ).toBe(200);
    }
  });

  it('keeps a device in its tenant: a move is refused even for an administrator of both, writing nothing', async () => {
    const device = await contosoDevice({ name: 'Stays home' });
    const moved = await portal.as('admin', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}`,
      payload: input({ name: 'Moved', tenantId: DEMO.fabrikam, subscriptionId: DEMO.fabrikamProduction }),
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({
      message: FLEET_MESSAGES.saveDeviceFailed,
      errors: { tenantId: [DEVICE_MESSAGES.tenantFixed] },
    });
    const stored = await portal.db
      .selectFrom('device')
      .select(['name', 'tenant_id', 'subscription_id'])
      .where('device_id', '=', device.deviceId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Stays home', tenant_id: DEMO.contoso, subscription_id: DEMO.contosoProduction });
  });

  it("refuses another tenant's subscription, a tenant outside the caller's and another tenant's location, writing nothing", async () => {
    const device = await contosoDevice({ name: 'Unchanged name' });
    const otherSubscription = await portal.as('operator', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}`,
      payload: input({ subscriptionId: DEMO.fabrikamProduction }),
    });
    expect(otherSubscription.statusCode).toBe(400);
    expect(otherSubscription.json()).toMatchObject({
      message: FLEET_MESSAGES.saveDeviceFailed,
      errors: { subscriptionId: [DEVICE_MESSAGES.subscriptionRequired] },
    });
    const otherTenant = await portal.as('operator', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}`,
      payload: input({ tenantId: DEMO.fabrikam, subscriptionId: DEMO.fabrikamProduction }),
    });
    expect(otherTenant.json()).toMatchObject({ errors: { tenantId: [DEVICE_MESSAGES.tenantFixed] } });
    const mismatch = await portal.as('admin', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}`,
      payload: input({ subscriptionId: DEMO.fabrikamProduction }),
    });
    expect(mismatch.json()).toMatchObject({ errors: { subscriptionId: [DEVICE_MESSAGES.subscriptionOfTenant] } });
    const location = await portal.db
      .insertInto('location')
      .values({ tenant_id: DEMO.fabrikam, name: 'Fabrikam plant' })
      .returning('location_id')
      .executeTakeFirstOrThrow();
    const otherLocation = await portal.as('admin', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}`,
      payload: input({ locationId: location.location_id }),
    });
    expect(otherLocation.json()).toMatchObject({ errors: { locationId: [DEVICE_MESSAGES.locationOfTenant] } });
    const shared = await portal.db
      .insertInto('location')
      .values({ tenant_id: null, name: 'Shared site' })
      .returning('location_id')
      .executeTakeFirstOrThrow();
    const withShared = await portal.as('operator', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}`,
      payload: input({ name: 'Unchanged name', locationId: shared.location_id }),
    });
    expect(withShared.json()).toMatchObject({ locationId: shared.location_id, location: { name: 'Shared site' } });
    const stored = await portal.db
      .selectFrom('device')
      .select(['name', 'subscription_id'])
      .where('device_id', '=', device.deviceId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Unchanged name', subscription_id: DEMO.contosoProduction });
  });
});

describe("another tenant's device", () => {
  it('is not found by operator2 of Fabrikam for reading, editing, deleting, restarting, tracing, logs and installations', async () => {
    const device = await contosoDevice({ name: 'Guarded' });
    const id = device.deviceId;
    const calls = [
      { method: 'GET', url: `/v1/devices/${id}` },
      {
        method: 'POST',
        url: `/v1/devices/${id}`,
        payload: input({ tenantId: DEMO.fabrikam, subscriptionId: DEMO.fabrikamProduction }),
      },
      { method: 'DELETE', url: `/v1/devices/${id}` },
      { method: 'POST', url: `/v1/devices/${id}/restartagent?__tenant__=${DEMO.contoso}` },
      { method: 'POST', url: `/v1/devices/${id}/restartagent?__tenant__=${DEMO.fabrikam}` },
      { method: 'POST', url: `/v1/devices/${id}/toggleTrace/10` },
      { method: 'GET', url: `/v1/devices/${id}/logs` },
      { method: 'GET', url: `/v1/devices/GetPackageInstallsWithVersions(deviceId=${id})` },
      { method: 'POST', url: `/v1/deviceInstallations/${id}/packages`, payload: [] },
    ] as const;
    for (const call of calls) {
      const response = await portal.as('operator2', call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(response.body).not.toContain('Guarded');
    }
    const stored = await portal.db
      .selectFrom('device')
      .selectAll()
      .where('device_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      name: 'Guarded',
      is_deleted: false,
      restart_agent_flag: false,
      trace_minutes: 0,
      tenant_id: DEMO.contoso,
    });
  });
});

describe('deleting a device', () => {
  it('soft-deletes it with the success text', async () => {
    const device = await contosoDevice({ name: 'Retired box' });
    const response = await portal.as('operator', { method: 'DELETE', url: `/v1/devices/${device.deviceId}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: FLEET_MESSAGES.deviceDeleted('Retired box') });
    expect(
      (
        await portal.db
          .selectFrom('device')
          .select('is_deleted')
          .where('device_id', '=', device.deviceId)
          .executeTakeFirstOrThrow()
      ).is_deleted,
    ).toBe(true);
    expect((await portal.as('operator', { method: 'GET', url: `/v1/devices/${device.deviceId}` })).statusCode).toBe(
      404,
    );
  });

  it('refuses while the device has operations, with the spec text', async () => {
    const device = await contosoDevice({ name: 'Busy box' });
    const pkg = await createPackage(DEMO.contoso, 'Ops package', [], ['1.0.0']);
    const operation = await portal.db
      .insertInto('operation')
      .values({
        package_id: pkg.packageId,
        name: 'Ping',
        frequency_type_ids: [1],
        operation_type_id: 3,
        operation_result_type_id: 1,
      })
      .returning('operation_id')
      .executeTakeFirstOrThrow();
    const deviceOperation = await portal.db
      .insertInto('device_operation')
      .values({
        tenant_id: DEMO.contoso,
        device_id: device.deviceId,
        operation_id: operation.operation_id,
        label: 'Ping',
        frequency_type_id: 1,
      })
      .returning('device_operation_id')
      .executeTakeFirstOrThrow();
    const refused = await portal.as('operator', { method: 'DELETE', url: `/v1/devices/${device.deviceId}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(FLEET_MESSAGES.deleteDeviceRefused('Busy box'));
    await portal.db
      .updateTable('device_operation')
      .set({ is_deleted: true })
      .where('device_operation_id', '=', deviceOperation.device_operation_id)
      .execute();
    expect((await portal.as('operator', { method: 'DELETE', url: `/v1/devices/${device.deviceId}` })).statusCode).toBe(
      200,
    );
  });
});

describe('tracing and restart', () => {
  it('sets the trace expiration to now plus the minutes, keeps it for No Change and clears it for Disabled', async () => {
    const device = await contosoDevice();
    const before = Date.now();
    const traced = await portal.as('operator', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}/toggleTrace/60`,
    });
    expect(traced.statusCode).toBe(200);
    const { traceMinutes, traceExpiration } = traced.json<{ traceMinutes: number; traceExpiration: string }>();
    expect(traceMinutes).toBe(60);
    const expires = new Date(traceExpiration).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 60 * 60_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 60 * 60_000 + 5_000);
    const unchanged = await portal.as('operator', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}/toggleTrace/-1`,
    });
    expect(unchanged.json()).toMatchObject({ traceMinutes: 60, traceExpiration });
    const disabled = await portal.as('operator', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}/toggleTrace/0`,
    });
    expect(disabled.json()).toMatchObject({ traceMinutes: 0, traceExpiration: null });
  });

  it('refuses minutes that are not a tracing option', async () => {
    const device = await contosoDevice();
    for (const minutes of ['15', 'abc', '-2']) {
      const response = await portal.as('operator', {
        method: 'POST',
        url: `/v1/devices/${device.deviceId}/toggleTrace/${minutes}`,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ errors: Record<string, string[]> }>().errors.minutes).toEqual([
        DEVICE_MESSAGES.traceOptionInvalid,
      ]);
    }
  });

  it('raises the restart flag and answers the queued text; a tenant in the address must be the device tenant', async () => {
    const device = await contosoDevice({ name: 'Restart me' });
    const response = await portal.as('operator', {
      method: 'POST',
      url: `/v1/devices/${device.deviceId}/restartagent?__tenant__=${DEMO.contoso}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: FLEET_MESSAGES.restartQueued('Restart me') });
    expect(
      (
        await portal.db
          .selectFrom('device')
          .select('restart_agent_flag')
          .where('device_id', '=', device.deviceId)
          .executeTakeFirstOrThrow()
      ).restart_agent_flag,
    ).toBe(true);
    const other = await contosoDevice();
    expect(
      (
        await portal.as('admin', {
          method: 'POST',
          url: `/v1/devices/${other.deviceId}/restartagent?__tenant__=${DEMO.fabrikam}`,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('device logs', () => {
  it('answers the newest entries first', async () => {
    const device = await contosoDevice();
    await portal.db
      .insertInto('device_log')
      .values([
        {
          tenant_id: DEMO.contoso,
          device_id: device.deviceId,
          created: new Date('2026-01-01T00:00:00Z'),
          entry_type: 'Info',
          detail: 'older',
        },
        {
          tenant_id: DEMO.contoso,
          device_id: device.deviceId,
          created: new Date('2026-01-02T00:00:00Z'),
          entry_type: 'Error',
          detail: 'newer',
        },
      ])
      .execute();
    const response = await portal.as('operator', { method: 'GET', url: `/v1/devices/${device.deviceId}/logs` });
    expect(response.statusCode).toBe(200);
    expect(response.json<Row[]>().map((row) => row.detail)).toEqual(['newer', 'older']);
    expect(response.json<Row[]>()[0]).toMatchObject({ entryType: 'Error', created: '2026-01-02T00:00:00.000Z' });
  });
});

describe('installations', () => {
  it("offers the tenant's and tenantless packages for the device's operating system, with versions and status", async () => {
    const device = await contosoDevice({ operatingSystemId: OPERATING_SYSTEMS.WinX64 });
    const windows = await createPackage(
      DEMO.contoso,
      'inst-Windows watcher',
      [OPERATING_SYSTEMS.WinX64],
      ['1.0.0', '1.1.0'],
    );
    await createPackage(DEMO.contoso, 'inst-Linux watcher', [OPERATING_SYSTEMS.LinuxX64], ['1.0.0']);
    const shared = await createPackage(
      null,
      'inst-Shared runner',
      [OPERATING_SYSTEMS.WinX64, OPERATING_SYSTEMS.LinuxX64],
      ['2.0.0'],
    );
    await createPackage(DEMO.fabrikam, 'inst-Fabrikam tool', [], ['1.0.0']);
    const response = await portal.as('operator', {
      method: 'GET',
      url: `/v1/devices/GetPackageInstallsWithVersions(deviceId=${device.deviceId})`,
    });
    expect(response.statusCode).toBe(200);
    const rows = response
      .json<{ packageName: string; installStatus: number; packageVersions: { packageVersionId: string }[] }[]>()
      .filter((row) => row.packageName.startsWith('inst-'));
    expect(rows.map((row) => row.packageName)).toEqual(['inst-Shared runner', 'inst-Windows watcher']);
    expect(rows.every((row) => row.installStatus === INSTALL_STATUSES.AvailableForInstall)).toBe(true);
    expect(rows[1]?.packageVersions.map((version) => version.packageVersionId).sort()).toEqual(
      [...windows.versionIds].sort(),
    );
    expect(rows[0]?.packageVersions.map((version) => version.packageVersionId)).toEqual(shared.versionIds);

    const unknown = await contosoDevice({ operatingSystemId: OPERATING_SYSTEMS.Unknown });
    const all = (
      await portal.as('operator', {
        method: 'GET',
        url: `/v1/devices/GetPackageInstallsWithVersions(deviceId=${unknown.deviceId})`,
      })
    ).json<{ packageName: string }[]>();
    expect(all.map((row) => row.packageName).filter((name) => name.startsWith('inst-'))).toEqual([
      'inst-Linux watcher',
      'inst-Shared runner',
      'inst-Windows watcher',
    ]);
  });

  it('saves a chosen version as Pending, and none removes it or marks an installed one RemovalPending', async () => {
    const device = await contosoDevice();
    const a = await createPackage(DEMO.contoso, 'save-A', [], ['1.0.0', '2.0.0']);
    const b = await createPackage(DEMO.contoso, 'save-B', [], ['1.0.0']);
    const save = (choices: { packageId: string; packageVersionId: string }[]) =>
      portal.as('operator', {
        method: 'POST',
        url: `/v1/deviceInstallations/${device.deviceId}/packages`,
        payload: choices.map((choice) => ({ ...choice, deviceId: device.deviceId })),
      });
    const saved = await save([
      { packageId: a.packageId, packageVersionId: a.versionIds[1]! },
      { packageId: b.packageId, packageVersionId: b.versionIds[0]! },
    ]);
    expect(saved.statusCode).toBe(200);
    const statusOf = async () =>
      Object.fromEntries(
        (
          await portal.db
            .selectFrom('device_installation')
            .select(['package_id', 'install_status_id', 'package_version_id'])
            .where('device_id', '=', device.deviceId)
            .execute()
        ).map((row) => [row.package_id, [row.install_status_id, row.package_version_id]]),
      );
    expect(await statusOf()).toEqual({
      [a.packageId]: [INSTALL_STATUSES.Pending, a.versionIds[1]],
      [b.packageId]: [INSTALL_STATUSES.Pending, b.versionIds[0]],
    });
    // The agent reports B installed, then the user chooses none for both.
    await portal.db
      .updateTable('device_installation')
      .set({ install_status_id: INSTALL_STATUSES.Installed, installed_package_version_id: b.versionIds[0]! })
      .where('package_id', '=', b.packageId)
      .execute();
    const none = await save([
      { packageId: a.packageId, packageVersionId: EMPTY_GUID },
      { packageId: b.packageId, packageVersionId: EMPTY_GUID },
    ]);
    expect(none.statusCode).toBe(200);
    expect(await statusOf()).toEqual({ [b.packageId]: [INSTALL_STATUSES.RemovalPending, null] });
    const rows = none.json<{ packageName: string; installStatus: number }[]>();
    expect(rows.find((row) => row.packageName === 'save-A')?.installStatus).toBe(INSTALL_STATUSES.AvailableForInstall);
  });

  it("refuses a version of another package and another tenant's package, writing nothing", async () => {
    const device = await contosoDevice();
    const a = await createPackage(DEMO.contoso, 'refuse-A', [], ['1.0.0']);
    const b = await createPackage(DEMO.contoso, 'refuse-B', [], ['1.0.0']);
    const foreign = await createPackage(DEMO.fabrikam, 'refuse-Fabrikam', [], ['1.0.0']);
    const wrongVersion = await portal.as('operator', {
      method: 'POST',
      url: `/v1/deviceInstallations/${device.deviceId}/packages`,
      payload: [
        { packageId: b.packageId, deviceId: device.deviceId, packageVersionId: b.versionIds[0] },
        { packageId: a.packageId, deviceId: device.deviceId, packageVersionId: b.versionIds[0] },
      ],
    });
    expect(wrongVersion.statusCode).toBe(400);
    expect(wrongVersion.json()).toMatchObject({
      message: FLEET_MESSAGES.saveInstallationsFailed,
      errors: { packageVersionId: [DEVICE_MESSAGES.versionOfPackage] },
    });
    const foreignPackage = await portal.as('admin', {
      method: 'POST',
      url: `/v1/deviceInstallations/${device.deviceId}/packages`,
      payload: [{ packageId: foreign.packageId, deviceId: device.deviceId, packageVersionId: foreign.versionIds[0] }],
    });
    expect(foreignPackage.json()).toMatchObject({ errors: { packageId: [DEVICE_MESSAGES.packageNotAvailable] } });
    const rows = await portal.db
      .selectFrom('device_installation')
      .select('package_id')
      .where('device_id', '=', device.deviceId)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('tenant settings', () => {
  it("answers the portal's own Windows agent as the download address, and 404 for another tenant", async () => {
    const response = await portal.as('operator', { method: 'GET', url: `/api/${DEMO.contoso}/settings` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      agentDownloadUrl: 'http://portal.test/downloads/agent/cfs-agent-win-x64.exe',
      agentInstall: {
        portalUrl: 'http://portal.test',
        linuxDownloadUrl: 'http://portal.test/downloads/agent/cfs-agent-linux-x64',
        windowsDownloadUrl: 'http://portal.test/downloads/agent/cfs-agent-win-x64.exe',
      },
    });
    expect((await portal.as('operator2', { method: 'GET', url: `/api/${DEMO.contoso}/settings` })).statusCode).toBe(
      404,
    );
  });
});

// Last: its 100,000 devices stay in Fabrikam.
describe('the devices list at scale', () => {
  it('finds the first page by name through the partial index, also at 100,000 devices', async () => {
    // In batches: each statement stays within the portal's statement timeout on a busy machine.
    for (let first = 1; first <= 100_000; first += 10_000) {
      await sql`INSERT INTO device (tenant_id, subscription_id, name)
        SELECT ${DEMO.fabrikam}::uuid, ${DEMO.fabrikamProduction}::uuid, 'bulk ' || lpad(i::text, 6, '0') FROM generate_series(${first}::int, ${first + 9_999}::int) AS i`.execute(
        portal.db,
      );
    }
    await sql`ANALYZE device`.execute(portal.db);
    const started = performance.now();
    const response = await portal.as('operator2', { method: 'GET', url: '/v1/devices?$count=true&$top=10' });
    expect(response.json<{ value: Row[] }>().value).toHaveLength(10);
    expect(performance.now() - started).toBeLessThan(2000);
    // The statements the list runs, as the database plans them: read in the name index's order,
    // no sort of the tenant's devices, and a name search served by the trigram index.
    const scope = { kind: 'some', tenantIds: [DEMO.fabrikam] } as const;
    const explain = async (query: ListQueryInput) => {
      const { rows } = buildListSql(
        devicesBase(portal.db, scope),
        parseListQuery(deviceEntity.resource, { ...query, $count: 'true' }),
        scope,
      );
      const plan = await executeListStatement(
        portal.db,
        sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>`EXPLAIN (FORMAT JSON) ${rows}`,
      );
      return nodes(plan.rows[0]!['QUERY PLAN'][0].Plan).map((node) =>
        `${node['Node Type']} ${node['Index Name'] ?? ''}`.trim(),
      );
    };
    const page = await explain({ $top: '10', $orderby: 'name asc', $expand: 'location' });
    expect(
      page.some((node) => /device_(tenant_)?name_idx/.test(node)),
      JSON.stringify(page),
    ).toBe(true);
    expect(
      page.filter((node) => node.startsWith('Sort')),
      JSON.stringify(page),
    ).toEqual([]);
    const search = await explain({ $top: '10', $orderby: 'name asc', $filter: "contains(tolower(name),'099999')" });
    expect(
      search.some((node) => node.includes('device_name_trgm_idx') || node.includes('device_tenant_name_idx')),
      JSON.stringify(search),
    ).toBe(true);
    expect(
      search.filter((node) => node.startsWith('Seq Scan')),
      JSON.stringify(search),
    ).toEqual([]);
  }, 60_000);
});
