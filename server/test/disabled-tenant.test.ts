import { TENANT_DISABLED_MESSAGE } from '@cfs/contracts/tenants';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDevice, createStaffedTenant, createWorkUnitAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
/** A tenant of the test's own with a subscription and a staff member: disabled before the tests. */
let staff: Awaited<ReturnType<typeof createStaffedTenant>>;
/** A work unit of the tenant's, made while it was enabled. */
let tenantUnit: { workUnitId: number };
beforeAll(async () => {
  portal = await createTestPortal();
  staff = await createStaffedTenant(portal);
  tenantUnit = await createWorkUnitAs(portal, staff.userName, staff.tenantId);
  const toggled = await portal.as('admin', { method: 'POST', url: `/v1/tenants/toggledisabled/${staff.tenantId}` });
  expect(toggled.json()).toMatchObject({ enabled: false });
});
afterAll(async () => {
  await portal?.close();
});

const incident = () => ({
  workUnitId: -1,
  title: 'Printer offline',
  severityId: 2,
  stateId: WORK_UNIT_STATES.New,
  tenantId: staff.tenantId,
  workUnitTypeId: WORK_UNIT_TYPES.Incident,
});

describe('a disabled tenant', () => {
  test('refuses new work units from its staff, saying why', async () => {
    const response = await portal.as(staff.userName, { method: 'PUT', url: '/api/v1/workunits', payload: incident() });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ tenantId: [TENANT_DISABLED_MESSAGE] });
  });

  test('refuses new API tokens', async () => {
    const response = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/tokens',
      payload: { tenantId: staff.tenantId, name: 'Agent', lifetimeYears: 1 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(TENANT_DISABLED_MESSAGE);
  });

  test('leaves the pickers, with its subscriptions', async () => {
    const tenants = (await portal.as('admin', { method: 'GET', url: '/api/generallookup/tenants' })).json<
      { tenantId: string }[]
    >();
    expect(tenants.map((tenant) => tenant.tenantId)).not.toContain(staff.tenantId);
    const subscriptions = (await portal.as('admin', { method: 'GET', url: '/api/generallookup/subscriptions' })).json<
      { tenantId: string }[]
    >();
    expect(subscriptions.map((subscription) => subscription.tenantId)).not.toContain(staff.tenantId);
  });

  test('keeps its data readable to administrators', async () => {
    expect((await portal.as('admin', { method: 'GET', url: `/v1/tenants/${staff.tenantId}` })).json()).toMatchObject({
      name: staff.name,
      enabled: false,
    });
    const units = await portal.as('admin', {
      method: 'GET',
      url: `/v1/workunits?$count=true&$filter=tenantId eq ${staff.tenantId}&$top=1000`,
    });
    const listed = units.json<{ '@odata.count': number; value: { workUnitId: number }[] }>();
    expect(listed['@odata.count']).toBeGreaterThan(0);
    expect(listed.value.map((unit) => unit.workUnitId)).toContain(tenantUnit.workUnitId);
  });

  test('is out of its own staff’s reach in every area: its devices, work units and other data are neither listed nor read', async () => {
    const device = await createDevice(portal, staff.tenantId, staff.subscriptionId, {
      name: 'Line controller',
    });
    const lists = [
      '/v1/devices',
      '/v1/workunits',
      '/v1/locations',
      '/v1/packages',
      '/v1/workunitcategories',
      '/v1/devices/Export',
      '/v1/workunits/Export',
      '/api/generallookup/locations',
      '/api/generallookup/workunitcatgories',
    ];
    for (const url of lists) {
      const response = await portal.as(staff.userName, { method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain(staff.tenantId);
    }
    expect((await portal.as(staff.userName, { method: 'GET', url: `/v1/devices/${device.deviceId}` })).statusCode).toBe(
      404,
    );
    expect(
      (await portal.as(staff.userName, { method: 'GET', url: `/v1/workunits(${tenantUnit.workUnitId})` })).statusCode,
    ).toBe(404);
    // Administrators of every tenant still read it.
    expect((await portal.as('admin', { method: 'GET', url: `/v1/devices/${device.deviceId}` })).json()).toMatchObject({
      name: 'Line controller',
    });
  });

  test('gives its staff their data back once it is enabled again', async () => {
    const device = await createDevice(portal, staff.tenantId, staff.subscriptionId, { name: 'Controller again' });
    expect(
      (await portal.as('admin', { method: 'POST', url: `/v1/tenants/toggledisabled/${staff.tenantId}` })).json(),
    ).toMatchObject({ enabled: true });
    try {
      expect(
        (await portal.as(staff.userName, { method: 'GET', url: `/v1/devices/${device.deviceId}` })).statusCode,
      ).toBe(200);
    } finally {
      expect(
        (await portal.as('admin', { method: 'POST', url: `/v1/tenants/toggledisabled/${staff.tenantId}` })).json(),
      ).toMatchObject({ enabled: false });
    }
  });
});
