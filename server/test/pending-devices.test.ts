import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { DEMO } from '../src/db/demo-ids.js';
import { createTestPortal, type TestPortal } from './harness.js';
import { expectEntityIdRefusedTo, insertPendingDevice } from './fleet-factories.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

type Row = { pendingDeviceId: string; machineName: string; lastPing: string };
const list = async (user: string, query = '') => {
  const response = await portal.as(user, { method: 'GET', url: `/v1/pendingdevices?$top=100${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ value: Row[] }>().value;
};
const promote = (user: string, payload: unknown) =>
  portal.as(user, {
    method: 'POST',
    url: '/v1/pendingdevices/batchpromote',
    payload: payload as Record<string, unknown>,
  });
const remove = (user: string, payload: unknown) =>
  portal.as(user, {
    method: 'DELETE',
    url: '/v1/pendingdevices/batchdelete',
    payload: payload as Record<string, unknown>,
  });
const deviceRows = (ids: string[]) =>
  scoped(portal.db, ALL_TENANTS).selectFrom('device').selectAll().where('device_id', 'in', ids).execute();

describe('pending devices', () => {
  it('seeds Contoso with pending devices, some inactive, listed by machine name', async () => {
    const rows = await list('operator');
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const names = rows.map((row) => row.machineName);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
    const active = await list('operator', `&$filter=lastPing gt ${dayAgo}`);
    expect(active.length).toBeGreaterThan(0);
    expect(active.length).toBeLessThan(rows.length);
  });

  it('searches machine name, operating system, architecture and IP address', async () => {
    await insertPendingDevice(portal, DEMO.contoso, { machineName: 'SEARCH-ME-01', operatingSystem: 'Plan9' });
    const byOs = await list('operator', `&$filter=contains(tolower(operatingSystem),'plan9')`);
    expect(byOs.map((row) => row.machineName)).toEqual(['SEARCH-ME-01']);
    const byIp = await list('operator', `&$filter=contains(ipAddress,'10.0.0.5') and startswith(machineName,'SEARCH')`);
    expect(byIp).toHaveLength(1);
  });

  it("keeps another tenant's pending devices invisible and untouchable", async () => {
    const fabrikam = await insertPendingDevice(portal, DEMO.fabrikam, { machineName: 'FAB-ONLY' });
    expect((await list('operator')).map((row) => row.machineName)).not.toContain('FAB-ONLY');
    expect((await list('operator2')).map((row) => row.machineName)).toContain('FAB-ONLY');
    expect((await promote('operator', [fabrikam.pending_device_id])).statusCode).toBe(404);
    expect((await remove('operator', [fabrikam.pending_device_id])).statusCode).toBe(404);
    expect((await list('operator2')).map((row) => row.machineName)).toContain('FAB-ONLY');
    expect((await portal.as('enduser', { method: 'GET', url: '/v1/pendingdevices' })).statusCode).toBe(403);
    expect((await promote('enduser', [fabrikam.pending_device_id])).statusCode).toBe(403);
  });

  it('refuses none and 25 or more with "Please select fewer than 25 Devices."', async () => {
    const many = await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        insertPendingDevice(portal, DEMO.contoso, { machineName: `BULK-${String(index).padStart(2, '0')}` }),
      ),
    );
    const ids = many.map((row) => row.pending_device_id);
    for (const call of [promote, remove]) {
      for (const body of [ids, [], { pendingDeviceIds: ids }]) {
        const response = await call('operator', body);
        expect(response.statusCode).toBe(400);
        expect(response.json<{ errors: Record<string, string[]> }>().errors.pendingDeviceIds).toEqual([
          'Please select fewer than 25 Devices.',
        ]);
      }
    }
    expect((await list('operator', `&$filter=startswith(machineName,'BULK-')`)).length).toBe(25);
    const deleted = await remove('operator', ids.slice(0, 24));
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json<{ count: number }>().count).toBe(24);
    expect((await list('operator', `&$filter=startswith(machineName,'BULK-')`)).map((row) => row.machineName)).toEqual([
      'BULK-24',
    ]);
  });

  it('promotes into the current subscription, creating a device per pending device with its machine details and key', async () => {
    const windows = await insertPendingDevice(portal, DEMO.contoso, {
      machineName: 'PROMO-WIN',
      operatingSystem: 'Microsoft Windows 11 Pro',
    });
    const linux = await insertPendingDevice(portal, DEMO.contoso, {
      machineName: 'PROMO-LNX',
      operatingSystem: 'Linux (Ubuntu 22.04)',
    });
    const response = await promote('operator', [windows.pending_device_id, linux.pending_device_id]);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<{ count: number; deviceIds: string[] }>();
    expect(result.count).toBe(2);
    const devices = await deviceRows(result.deviceIds);
    const byName = new Map(devices.map((device) => [device.name, device]));
    expect(byName.get('PROMO-WIN')).toMatchObject({
      tenant_id: DEMO.contoso,
      subscription_id: DEMO.contosoProduction,
      operating_system_id: 1,
      machine_name: 'PROMO-WIN',
      architecture: 'X64',
      ip_address: '10.0.0.5',
      agent_key_hash: windows.agent_key_hash,
    });
    expect(byName.get('PROMO-LNX')).toMatchObject({ operating_system_id: 4, agent_key_hash: linux.agent_key_hash });
    expect((await list('operator')).map((row) => row.machineName)).not.toContain('PROMO-WIN');
    const audit = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('audit_event')
      .select(['action'])
      .where('entity_type', '=', 'pendingDevice')
      .where('entity_id', '=', windows.pending_device_id)
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['promote']);
  });

  it("promotes into a subscription named in the body only when it is of the pending devices' tenant, else writes nothing", async () => {
    const pending = await insertPendingDevice(portal, DEMO.contoso, { machineName: 'PROMO-STAGING' });
    const wrong = await promote('admin', {
      pendingDeviceIds: [pending.pending_device_id],
      subscriptionId: DEMO.fabrikamProduction,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ message: string }>().message).toBe(
      "Please choose a subscription of the pending devices' tenant.",
    );
    const foreign = await promote('operator', {
      pendingDeviceIds: [pending.pending_device_id],
      subscriptionId: DEMO.fabrikamProduction,
    });
    expect(foreign.statusCode).toBe(400);
    expect((await list('operator')).map((row) => row.machineName)).toContain('PROMO-STAGING');
    const right = await promote('operator', {
      pendingDeviceIds: [pending.pending_device_id],
      subscriptionId: DEMO.contosoStaging,
    });
    expect(right.statusCode).toBe(200);
    const [device] = await deviceRows(right.json<{ deviceIds: string[] }>().deviceIds);
    expect(device?.subscription_id).toBe(DEMO.contosoStaging);
  });

  it("makes a promoted device its tenant's entity: another tenant can neither report for it nor take its id for a block", async () => {
    const pending = await insertPendingDevice(portal, DEMO.fabrikam);
    const promoted = await promote('operator2', [pending.pending_device_id]);
    expect(promoted.statusCode, promoted.body).toBe(200);
    const [deviceId] = promoted.json<{ deviceIds: string[] }>().deviceIds;
    await expectEntityIdRefusedTo(portal, deviceId!, {
      user: 'operator',
      tenantId: DEMO.contoso,
      subscriptionId: DEMO.contosoProduction,
    });
  });

  it('promotes all or nothing: one missing id leaves every pending device where it was', async () => {
    const kept = await insertPendingDevice(portal, DEMO.contoso, { machineName: 'ALL-OR-NOTHING' });
    const response = await promote('operator', [kept.pending_device_id, '00000000-0000-4000-8000-000000000001']);
    expect(response.statusCode).toBe(404);
    expect((await list('operator')).map((row) => row.machineName)).toContain('ALL-OR-NOTHING');
    const made = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('device')
      .select('device_id')
      .where('agent_key_hash', '=', kept.agent_key_hash)
      .execute();
    expect(made).toEqual([]);
  });
});
