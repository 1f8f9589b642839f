import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import { createLocationAs, createTenantAs, unique } from './factories.js';
import { auditTrail, createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
/** A shared location, one of Contoso's (the operator's) and one of Fabrikam's (operator2's), made here. */
let shared: { locationId: string; name: string };
let contosoOwn: { locationId: string; name: string };
let fabrikamOwn: { locationId: string; name: string; city: string | null };
beforeAll(async () => {
  portal = await createTestPortal();
  shared = await createLocationAs(portal, 'admin', null, { name: `Shared hall ${unique()}` });
  contosoOwn = await createLocationAs(portal, 'operator', DEMO.contoso, { name: `Head office ${unique()}` });
  fabrikamOwn = await createLocationAs(portal, 'operator2', DEMO.fabrikam, {
    name: `Plant ${unique()}`,
    city: `Plantville ${unique()}`,
  });
});
afterAll(async () => {
  await portal?.close();
});

type Row = {
  locationId: string;
  name: string;
  tenantId: string | null;
  city: string | null;
  tenant?: { name: string } | null;
};
const list = async (user: string, query = '') => {
  const response = await portal.as(user, { method: 'GET', url: `/v1/locations?$count=true&$top=100${query}` });
  expect(response.statusCode).toBe(200);
  return response.json<{ '@odata.count': number; value: Row[] }>();
};
const create = (user: string, payload: Record<string, unknown>) =>
  portal.as(user, { method: 'PUT', url: '/v1/locations', payload });

describe('locations', () => {
  it('lists a tenant’s own locations and the shared ones, never another tenant’s', async () => {
    const names = (await list('operator')).value.map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining([shared.name, contosoOwn.name]));
    expect(names).not.toContain(fabrikamOwn.name);
    const admin = (await list('admin')).value.map((row) => row.name);
    expect(admin).toEqual(expect.arrayContaining([shared.name, contosoOwn.name, fabrikamOwn.name]));
  });

  it('expands the tenant, and sorts and filters by the tenant’s name', async () => {
    const tag = unique();
    const early = await createTenantAs(portal, 'admin', { name: `Early ${tag}` });
    const late = await createTenantAs(portal, 'admin', { name: `Late ${tag}` });
    for (const tenant of [early, late, late])
      await createLocationAs(portal, 'admin', tenant.tenantId, { name: `Site of ${tenant.name}` });
    const filtered = await list('admin', `&$expand=tenant&$filter=tenant/name eq '${late.name}'`);
    expect(filtered.value.length).toBe(2);
    expect(filtered.value.every((row) => row.tenant?.name === late.name)).toBe(true);
    const ours = `(tenantId eq ${early.tenantId} or tenantId eq ${late.tenantId})`;
    const sorted = (await list('admin', `&$expand=tenant&$filter=${ours}&$orderby=tenant/name desc`)).value;
    expect(sorted.map((row) => row.tenant?.name)).toEqual([late.name, late.name, early.name]);
    const city = fabrikamOwn.city?.slice(-6).toLowerCase() ?? '';
    const searched = await list('admin', `&$filter=contains(tolower(city),'${city}')`);
    expect(searched.value.map((row) => row.name)).toEqual([fabrikamOwn.name]);
  });

  it('creates, reads and updates a location of the caller’s tenant, and records both in the change history', async () => {
    const created = await create('operator', {
      name: 'Branch Office',
      city: 'Tacoma',
      state: 'WA',
      tenantId: DEMO.contoso,
    });
    expect(created.statusCode).toBe(200);
    const { locationId } = created.json<Row>();
    const updated = await portal.as('operator', {
      method: 'POST',
      url: `/v1/locations/${locationId}`,
      payload: { name: 'Branch Office North', city: 'Tacoma', state: 'WA', tenantId: DEMO.contoso },
    });
    expect(updated.statusCode).toBe(200);
    const read = await portal.as('operator', { method: 'GET', url: `/v1/locations/${locationId}` });
    expect(read.json()).toMatchObject({
      name: 'Branch Office North',
      city: 'Tacoma',
      tenantId: DEMO.contoso,
      createdBy: 'operator',
    });
    const audit = await auditTrail(portal.db, 'location', locationId);
    expect(audit.map((row) => row.action)).toEqual(['create', 'update']);
    expect(audit[1]?.changes).toMatchObject({ name: { from: 'Branch Office', to: 'Branch Office North' } });
  });

  it('requires a name with "Name is required"', async () => {
    const response = await create('operator', { name: '  ', tenantId: DEMO.contoso });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.name).toEqual(['Name is required']);
  });

  it('hides and protects another tenant’s location: 404 to read or edit, and no creating in its tenant', async () => {
    const fabrikam = fabrikamOwn;
    expect(
      (await portal.as('operator', { method: 'GET', url: `/v1/locations/${fabrikam.locationId}` })).statusCode,
    ).toBe(404);
    const edit = await portal.as('operator', {
      method: 'POST',
      url: `/v1/locations/${fabrikam.locationId}`,
      payload: { name: 'Taken', tenantId: DEMO.contoso },
    });
    expect(edit.statusCode).toBe(404);
    const into = await create('operator', { name: 'Sneaky', tenantId: DEMO.fabrikam });
    expect(into.statusCode).toBe(400);
    expect(into.json().errors.tenantId).toBeDefined();
    const still = await portal.as('admin', { method: 'GET', url: `/v1/locations/${fabrikam.locationId}` });
    expect(still.json().name).toBe(fabrikam.name);
  });

  it('lets only a caller of all tenants create or edit a shared (tenantless) location', async () => {
    expect((await create('operator', { name: 'Shared by a tenant', tenantId: null })).statusCode).toBe(403);
    expect((await list('operator', `&$filter=tenantId eq null`)).value.map((row) => row.name)).toContain(shared.name);
    const edit = await portal.as('operator', {
      method: 'POST',
      url: `/v1/locations/${shared.locationId}`,
      payload: { name: 'Renamed', tenantId: null },
    });
    expect(edit.statusCode).toBe(403);
    const takeOver = await portal.as('operator', {
      method: 'POST',
      url: `/v1/locations/${shared.locationId}`,
      payload: { name: 'Mine now', tenantId: DEMO.contoso },
    });
    expect(takeOver.statusCode).toBe(403);
    const byAdmin = await create('admin', { name: 'Shared Lab', tenantId: null });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().tenantId).toBeNull();
  });

  it("keeps a shared location shared while other tenants' devices are there, and lets it become their own tenant's", async () => {
    const created = await create('admin', {
      name: `Shared hall ${Math.random().toString(36).slice(2, 6)}`,
      tenantId: null,
    });
    expect(created.statusCode, created.body).toBe(200);
    const location = created.json<{ locationId: string; name: string }>();
    await scoped(portal.db, ALL_TENANTS)
      .insertInto('device', {
        tenant_id: DEMO.fabrikam,
        subscription_id: DEMO.fabrikamProduction,
        name: 'at the hall',
        location_id: location.locationId,
      })
      .execute();
    const edit = (tenantId: string | null) =>
      portal.as('admin', {
        method: 'POST',
        url: `/v1/locations/${location.locationId}`,
        payload: { name: location.name, tenantId },
      });
    const toContoso = await edit(DEMO.contoso);
    expect(toContoso.statusCode).toBe(400);
    expect(toContoso.json().errors.tenantId).toEqual([
      'Devices of other tenants are at this location: it can stay shared, or belong to their tenant.',
    ]);
    expect((await edit(DEMO.fabrikam)).statusCode).toBe(200);
  });

  it('refuses callers without the Locations permission', async () => {
    expect((await portal.as('enduser', { method: 'GET', url: '/v1/locations' })).statusCode).toBe(403);
    expect((await create('enduser', { name: 'X', tenantId: DEMO.contoso })).statusCode).toBe(403);
  });

  it('looks up the tenant’s and the shared locations for the device form', async () => {
    const response = await portal.as('operator2', {
      method: 'GET',
      url: `/api/generallookup/locations?tenantId=${DEMO.fabrikam}`,
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json<{ name: string; tenantId: string | null }[]>();
    expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining([shared.name, fabrikamOwn.name]));
    expect(rows.every((row) => row.tenantId === null || row.tenantId === DEMO.fabrikam)).toBe(true);
    const other = await portal.as('operator2', {
      method: 'GET',
      url: `/api/generallookup/locations?tenantId=${DEMO.contoso}`,
    });
    expect(other.json()).toEqual([]);
  });
});
