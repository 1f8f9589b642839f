import { TENANT_DISABLED_MESSAGE } from '@cfs/contracts/tenants';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO } from '../src/db/seed.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
  const toggled = await portal.as('admin', { method: 'POST', url: `/v1/tenants/toggledisabled/${DEMO.fabrikam}` });
  expect(toggled.json()).toMatchObject({ enabled: false });
});
afterAll(async () => {
  await portal?.close();
});

const incident = { workUnitId: -1, title: 'Printer offline', severityId: 2, stateId: WORK_UNIT_STATES.New, tenantId: DEMO.fabrikam, workUnitTypeId: WORK_UNIT_TYPES.Incident };

describe('a disabled tenant', () => {
  test('refuses new work units from its staff, saying why', async () => {
    const response = await portal.as('operator2', { method: 'PUT', url: '/api/v1/workunits', payload: incident });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ tenantId: [TENANT_DISABLED_MESSAGE] });
  });

  test('refuses new API tokens', async () => {
    const response = await portal.as('admin', { method: 'PUT', url: '/v1/tokens', payload: { tenantId: DEMO.fabrikam, name: 'Agent', lifetimeYears: 1 } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(TENANT_DISABLED_MESSAGE);
  });

  test('leaves the pickers, with its subscriptions', async () => {
    const tenants = (await portal.as('admin', { method: 'GET', url: '/api/generallookup/tenants' })).json<{ tenantId: string }[]>();
    expect(tenants.map((tenant) => tenant.tenantId)).not.toContain(DEMO.fabrikam);
    const subscriptions = (await portal.as('admin', { method: 'GET', url: '/api/generallookup/subscriptions' })).json<{ tenantId: string }[]>();
    expect(subscriptions.map((subscription) => subscription.tenantId)).not.toContain(DEMO.fabrikam);
  });

  test('keeps its data readable to administrators', async () => {
    expect((await portal.as('admin', { method: 'GET', url: `/v1/tenants/${DEMO.fabrikam}` })).json()).toMatchObject({ name: 'Fabrikam', enabled: false });
    const units = await portal.as('admin', { method: 'GET', url: `/v1/workunits?$count=true&$filter=tenantId eq ${DEMO.fabrikam}` });
    expect(units.json<{ '@odata.count': number }>()['@odata.count']).toBeGreaterThan(0);
  });
});
