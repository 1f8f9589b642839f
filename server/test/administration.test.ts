import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateToken, generateApiToken, isWellFormedToken } from '../src/auth/api-tokens.js';
import { createAdapterFactory, resealSignInRecords } from '../src/auth/embedded/adapter.js';
import { createSecretBox } from '../src/crypto/secret-box.js';
import { reencryptSecrets } from '../src/areas/tenants/secrets.js';
import { CATEGORY_MESSAGES } from '@cfs/contracts/work-unit-settings';
import { DEMO } from '../src/db/demo-ids.js';
import {
  createCategoryAs,
  createStaffedTenant,
  createSubscriptionAs,
  createTenantAs,
  createTokenAs,
  createUserIn,
  unique,
} from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

const field = (name: string, type: 1 | 2, options = '') => JSON.stringify({ Name: name, Type: type, Options: options });

describe('tenants', () => {
  it('seeds Contoso and Fabrikam with custom work unit fields, and their demo work units with values of them', async () => {
    const read = async (tenantId: string) =>
      (await portal.as('admin', { method: 'GET', url: `/v1/tenants(${tenantId})` })).json<
        Record<string, string | null>
      >();
    const contoso = await read(DEMO.contoso);
    expect(JSON.parse(String(contoso.workUnitField1))).toEqual({
      Name: 'Business Unit',
      Type: 2,
      Options: 'Retail,Wholesale,Corporate',
    });
    expect(JSON.parse(String(contoso.workUnitField3))).toEqual({ Name: 'Asset Tag', Type: 1, Options: '' });
    const fabrikam = await read(DEMO.fabrikam);
    expect(JSON.parse(String(fabrikam.workUnitField1))).toEqual({
      Name: 'Plant',
      Type: 2,
      Options: 'Redmond,Tacoma,Dublin',
    });
    expect(JSON.parse(String(fabrikam.workUnitField2))).toEqual({ Name: 'Production Line', Type: 1, Options: '' });

    const units = async (tenantId: string) =>
      (
        await portal.as('admin', {
          method: 'GET',
          url: `/v1/workunits?$filter=tenantId eq ${tenantId} and createdBy eq 'seed'&$top=100`,
        })
      ).json<{ value: Record<string, unknown>[] }>().value;
    const contosoUnits = await units(DEMO.contoso);
    expect(contosoUnits.length).toBeGreaterThan(0);
    for (const unit of contosoUnits) {
      expect(['Retail', 'Wholesale', 'Corporate']).toContain(unit.customValue1);
      expect(unit.customValue3).toMatch(/^CT-\d+$/);
    }
    const fabrikamUnits = await units(DEMO.fabrikam);
    expect(fabrikamUnits.length).toBeGreaterThan(0);
    for (const unit of fabrikamUnits) {
      expect(['Redmond', 'Tacoma', 'Dublin']).toContain(unit.customValue1);
      expect(unit.customValue2).toMatch(/^Line \d$/);
    }
  });

  it('lists tenants with @odata.count, sorted and filtered on the server', async () => {
    const [kestrel, osprey] = [`Kestrel q${unique()}`, `Osprey q${unique()}`];
    for (const name of [kestrel, osprey, `Unlisted q${unique()}`]) await createTenantAs(portal, 'admin', { name });
    // Either side of the OR, each matched whatever the case.
    const filter = `contains(name,'${kestrel.slice(-9).toUpperCase()}') or startswith(name,'${osprey.toLowerCase()}')`;
    const response = await portal.as('admin', {
      method: 'GET',
      url: `/v1/tenants?$count=true&$orderby=name desc&$filter=${filter}`,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ '@odata.count': number; value: { name: string }[] }>();
    expect(body.value.map((t) => t.name)).toEqual([osprey, kestrel]);
    expect(body['@odata.count']).toBe(2);
  });

  it('creates a tenant with two custom fields and reads it back by GET v1/tenants({id})', async () => {
    const created = await createTenantAs(portal, 'admin', {
      name: 'Northwind',
      internalNotificationEmailAddress: 'noc@northwind.example',
      assignmentGroups: 'Service Desk, Network ,',
      workUnitField1: field('Region', 2, 'East,West'),
      workUnitField3: field('Asset tag', 1),
    });
    const response = await portal.as('admin', { method: 'GET', url: `/v1/tenants(${created.tenantId})` });
    expect(response.statusCode).toBe(200);
    const tenant = response.json<Record<string, unknown>>();
    expect(tenant).toMatchObject({
      name: 'Northwind',
      enabled: true,
      assignmentGroups: 'Service Desk,Network',
      createdBy: 'admin',
    });
    expect(JSON.parse(String(tenant.workUnitField1))).toEqual({ Name: 'Region', Type: 2, Options: 'East,West' });
    expect(JSON.parse(String(tenant.workUnitField3))).toEqual({ Name: 'Asset tag', Type: 1, Options: '' });
    expect(tenant.workUnitField2).toBeNull();
    const groups = await portal.as('admin', { method: 'GET', url: `/v1/tenants/${created.tenantId}/assignmentGroups` });
    expect(groups.json()).toEqual(['Service Desk', 'Network']);
  });

  it('requires a name', async () => {
    const response = await portal.as('admin', { method: 'PUT', url: '/v1/tenants', payload: { name: '  ' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.name).toEqual(['Please enter a name.']);
  });

  it('rejects two custom fields of the same name with "Can not have duplicate custom fields."', async () => {
    const response = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/tenants',
      payload: { name: 'Dupes', workUnitField1: field('Region', 1), workUnitField2: field('region', 1) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Unable to save tenant, please try again.',
      errors: { workUnitField2: ['Can not have duplicate custom fields.'] },
    });
    const none = await portal.as('admin', { method: 'GET', url: "/v1/tenants?$filter=name eq 'Dupes'" });
    expect(none.json().value).toEqual([]);
  });

  it('rejects a dropdown without options and a field without a name', async () => {
    const response = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/tenants',
      payload: { name: 'Bad fields', workUnitField1: field('Region', 2, ' , '), workUnitField2: field('', 1) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      workUnitField1: ['Please enter the options of the dropdown, separated by commas.'],
      workUnitField2: ['Please enter a field name.'],
    });
  });

  it('validates the intake wizard form as JSON and as a JSON Schema, and serves it', async () => {
    const tenant = await createStaffedTenant(portal);
    const notJson = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${tenant.tenantId}`,
      payload: { name: tenant.name, intakeWizardSchema: '{"type": ' },
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().errors.intakeWizardSchema[0]).toMatch(/^The intake wizard form must be JSON\./);
    const notSchema = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${tenant.tenantId}`,
      payload: { name: tenant.name, intakeWizardSchema: '{"type": 5}' },
    });
    expect(notSchema.statusCode).toBe(400);
    expect(notSchema.json().errors.intakeWizardSchema[0]).toMatch(/not a valid JSON Schema/);
    const schema = {
      title: 'New request',
      type: 'object',
      required: ['summary'],
      properties: { summary: { type: 'string', title: 'Summary' } },
    };
    const saved = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${tenant.tenantId}`,
      payload: { name: tenant.name, intakeWizardSchema: JSON.stringify(schema) },
    });
    expect(saved.statusCode).toBe(200);
    const served = await portal.as(tenant.userName, {
      method: 'GET',
      url: `/v1/tenants/${tenant.tenantId}/intakewizardschema`,
    });
    expect(served.headers['content-type']).toContain('application/json');
    expect(served.json()).toEqual(schema);
  });

  it('toggles a tenant between enabled and disabled, at its own path and at the spec spelling, recording each change in the audit trail', async () => {
    const tenant = await createTenantAs(portal, 'admin', { name: 'Toggle me' });
    const off = await portal.as('admin', { method: 'POST', url: `/v1/tenants/${tenant.tenantId}/toggledisabled` });
    expect(off.json().enabled).toBe(false);
    const on = await portal.as('admin', { method: 'POST', url: `/v1/tenants/toggledisabled/${tenant.tenantId}` });
    expect(on.json().enabled).toBe(true);
    const audit = await portal.as('admin', {
      method: 'GET',
      url: `/v1/auditEvents?entityType=tenant&entityId=${tenant.tenantId}`,
    });
    const events = audit.json<{ value: { action: string; actorName: string; changes: Record<string, unknown> }[] }>()
      .value;
    expect(events.map((event) => event.action)).toEqual(['update', 'update', 'create']);
    expect(events[0]).toMatchObject({ actorName: 'admin', changes: { enabled: { from: false, to: true } } });
  });

  it('exports the tenants grid as CSV, through Export()', async () => {
    const [first, second] = [`Aster ${unique()}`, `Briar ${unique()}`];
    for (const name of [second, first]) await createTenantAs(portal, 'admin', { name });
    const response = await portal.as('admin', {
      method: 'GET',
      url: `/v1/tenants/Export()?$orderby=name&$filter=name eq '${first}' or name eq '${second}'`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="tenants.csv"');
    const lines = response.body.trim().split('\n');
    expect(lines[0]).toContain('tenantId,name,internalNotificationEmailAddress,enabled');
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual([first, second]);
  });

  it('answers 400 naming the problem for a bad list query, never 500', async () => {
    const response = await portal.as('admin', { method: 'GET', url: '/v1/tenants?$filter=nosuchfield eq 1' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/nosuchfield/);
    const top = await portal.as('admin', { method: 'GET', url: '/v1/tenants?$top=5000' });
    expect(top.statusCode).toBe(400);
    expect(top.json().message).toBe('$top must be at most 1000');
  });
});

describe('subscriptions', () => {
  it('creates, lists by tenant and renames subscriptions; the header picker lookup sees them', async () => {
    const tenant = await createStaffedTenant(portal);
    const other = await createSubscriptionAs(portal, 'admin', tenant.tenantId, { name: 'Lab' });
    const created = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/subscriptions',
      payload: { tenantId: tenant.tenantId, name: 'DR' },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json<{ subscriptionId: string }>().subscriptionId;
    const renamed = await portal.as('admin', {
      method: 'POST',
      url: `/v1/subscriptions/${id}`,
      payload: { tenantId: tenant.tenantId, name: 'Disaster Recovery' },
    });
    expect(renamed.json().name).toBe('Disaster Recovery');
    const list = await portal.as('admin', {
      method: 'GET',
      url: `/v1/subscriptions?$filter=tenantId eq ${tenant.tenantId}&$orderby=name`,
    });
    expect(list.json().value.map((s: { name: string }) => s.name)).toEqual([
      'Disaster Recovery',
      other.name,
      tenant.subscriptionName,
    ]);
    const lookup = await portal.as(tenant.userName, { method: 'GET', url: '/api/generallookup/subscriptions' });
    expect(lookup.json().map((s: { name: string }) => s.name)).toContain('Disaster Recovery');
  });

  it('requires a name', async () => {
    const response = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/subscriptions',
      payload: { tenantId: DEMO.fabrikam, name: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.name).toEqual(['Please enter a name.']);
  });
});

describe('secrets', () => {
  it('keeps versions, never lists values, and records who read the latest value', async () => {
    const first = await portal.as('admin', {
      method: 'PUT',
      url: `/v1/tenants/${DEMO.contoso}/secrets`,
      payload: { name: 'smtp.password', value: 'first-Pa55' },
    });
    expect(first.statusCode).toBe(200);
    const secretId = first.json<{ secretId: string }>().secretId;
    const second = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${DEMO.contoso}/secrets/${secretId}`,
      payload: { value: 'second-Pa55' },
    });
    expect(second.json().latestVersion).toBe(2);
    const list = await portal.as('admin', { method: 'GET', url: `/v1/tenants/${DEMO.contoso}/secrets` });
    expect(list.body).not.toContain('Pa55');
    expect(list.json().value).toEqual([expect.objectContaining({ name: 'smtp.password', latestVersion: 2 })]);
    const latest = await portal.as('admin', {
      method: 'GET',
      url: `/v1/tenants/${DEMO.contoso}/secrets/${secretId}/versions/latest`,
    });
    expect(latest.json()).toMatchObject({ name: 'smtp.password', version: 2, value: 'second-Pa55' });
    expect(latest.headers['cache-control']).toBe('no-store');
    const audit = await portal.as('admin', {
      method: 'GET',
      url: `/v1/auditEvents?entityType=tenantSecret&entityId=${secretId}`,
    });
    expect(audit.json().value.map((e: { action: string }) => e.action)).toEqual([
      'read-secret',
      'set-value',
      'set-value',
    ]);
    expect(audit.body).not.toContain('Pa55');
  });

  it('refuses to reveal a value to a user who may only view tenants', async () => {
    await portal.db.insertInto('app_role').values({ name: 'TenantViewer' }).execute();
    const role = await portal.db
      .selectFrom('app_role')
      .select('role_id')
      .where('name', '=', 'TenantViewer')
      .executeTakeFirstOrThrow();
    await portal.db
      .insertInto('role_permission')
      .values({ role_id: role.role_id, permission: 'Tenants:view' })
      .execute();
    const user = await portal.db
      .insertInto('app_user')
      .values({ user_name: 'viewer', display_name: 'Vera Viewer', all_tenants: true })
      .returning('user_id')
      .executeTakeFirstOrThrow();
    await portal.db.insertInto('user_role').values({ user_id: user.user_id, role_id: role.role_id }).execute();
    const secret = await portal.as('admin', {
      method: 'PUT',
      url: `/v1/tenants/${DEMO.fabrikam}/secrets`,
      payload: { name: 'api.key', value: 'viewer-must-not-see' },
    });
    const secretId = secret.json<{ secretId: string }>().secretId;
    expect((await portal.as('viewer', { method: 'GET', url: `/v1/tenants/${DEMO.fabrikam}/secrets` })).statusCode).toBe(
      200,
    );
    const read = await portal.as('viewer', {
      method: 'GET',
      url: `/v1/tenants/${DEMO.fabrikam}/secrets/${secretId}/versions/latest`,
    });
    expect(read.statusCode).toBe(403);
  });

  it('rejects a secret name with spaces', async () => {
    const response = await portal.as('admin', {
      method: 'PUT',
      url: `/v1/tenants/${DEMO.contoso}/secrets`,
      payload: { name: 'my secret', value: 'x' },
    });
    expect(response.statusCode).toBe(400);
  });

  it('survives a key rotation: old versions stay readable with the previous key, then are re-encrypted with the new one', async () => {
    const secret = await portal.as('admin', {
      method: 'PUT',
      url: `/v1/tenants/${DEMO.contoso}/secrets`,
      payload: { name: 'rotation.check', value: 'still-readable' },
    });
    const secretId = secret.json<{ secretId: string }>().secretId;
    const oldKey = Buffer.from(
      await fs.readFile(path.join(portal.config.dataDir, 'keys', 'secrets.key'), 'utf8'),
      'base64',
    );
    const newKey = Buffer.alloc(32, 7);
    const rotated = createSecretBox(newKey, [oldKey]);
    const before = await portal.db
      .selectFrom('tenant_secret_version')
      .select(['key_id', 'ciphertext'])
      .where('secret_id', '=', secretId)
      .executeTakeFirstOrThrow();
    expect(rotated.decrypt(before.key_id, before.ciphertext)).toBe('still-readable');
    expect(() => createSecretBox(newKey).decrypt(before.key_id, before.ciphertext)).toThrow(/not configured/);
    expect(await reencryptSecrets(portal.db, rotated)).toBeGreaterThan(0);
    const after = await portal.db
      .selectFrom('tenant_secret_version')
      .select(['key_id', 'ciphertext'])
      .where('secret_id', '=', secretId)
      .executeTakeFirstOrThrow();
    expect(createSecretBox(newKey).decrypt(after.key_id, after.ciphertext)).toBe('still-readable');
    expect(await reencryptSecrets(portal.db, rotated)).toBe(0);
  });

  it("keeps the identity provider's sign-in records through a key rotation", async () => {
    const oldKey = Buffer.alloc(32, 11);
    const newKey = Buffer.alloc(32, 12);
    const id = `rotation-${randomUUID()}`;
    const payload = { accountId: 'operator', grantId: randomUUID(), kind: 'RefreshToken' };
    await createAdapterFactory(portal.db, createSecretBox(oldKey))('RefreshToken').upsert(id, payload, 3600);
    const withNewKeyAlone = createAdapterFactory(portal.db, createSecretBox(newKey))('RefreshToken');
    expect(await withNewKeyAlone.find(id)).toBeUndefined();
    expect(await resealSignInRecords(portal.db, createSecretBox(newKey, [oldKey]))).toBeGreaterThan(0);
    expect(await withNewKeyAlone.find(id)).toEqual(payload);
  });

  it('rejects a changed ciphertext instead of decrypting garbage', () => {
    const box = createSecretBox(Buffer.alloc(32, 3));
    const sealed = box.encrypt('integrity');
    const [iv, tag, body] = sealed.ciphertext.split('.');
    const tampered = [iv, tag, `${body?.slice(0, -2)}AA`].join('.');
    expect(() => box.decrypt(sealed.keyId, tampered)).toThrow();
  });
});

describe('tokens', () => {
  it('returns the generated token once, stores only its hash, and authenticates it', async () => {
    const grant = await createTokenAs(portal, 'operator', DEMO.contoso, { name: 'Agent 1', lifetimeYears: 2 });
    expect(isWellFormedToken(grant.generatedToken)).toBe(true);
    expect(grant.generatedToken.startsWith(grant.tokenPrefix)).toBe(true);
    const list = await portal.as('operator', { method: 'GET', url: `/v1/tokens?$filter=tenantId eq ${DEMO.contoso}` });
    expect(list.body).not.toContain(grant.generatedToken);
    const auth = await authenticateToken(portal.db, grant.generatedToken);
    expect(auth).toEqual({
      ok: true,
      tenantId: DEMO.contoso,
      tokenGrantId: grant.tokenGrantId,
      expiresOn: new Date(String(grant.expiresOn)),
    });
    const years = new Date(String(grant.expiresOn)).getUTCFullYear() - new Date().getUTCFullYear();
    expect(years).toBe(2);
  });

  it('lists tokens newest first with Active/Revoked derived from revokedOn', async () => {
    const a = await createTokenAs(portal, 'operator', DEMO.contoso, { name: 'Older' });
    const b = await createTokenAs(portal, 'operator', DEMO.contoso, { name: 'Newer', lifetimeYears: 0 });
    expect(b.expiresOn).toBeNull();
    const revoked = await portal.as('operator', { method: 'PUT', url: `/v1/tokens/${a.tokenGrantId}/revoke` });
    expect(revoked.json().revokedOn).not.toBeNull();
    const list = await portal.as('operator', {
      method: 'GET',
      url: `/v1/tokens?$filter=tenantId eq ${DEMO.contoso}&$orderby=created desc&$top=2`,
    });
    expect(list.json().value.map((t: { name: string }) => t.name)).toEqual(['Newer', 'Older']);
  });

  it('refuses revoked, expired, unknown, malformed and checksum-broken tokens', async () => {
    const grant = await createTokenAs(portal, 'operator', DEMO.contoso, { name: 'To revoke' });
    await portal.as('operator', { method: 'PUT', url: `/v1/tokens/${grant.tokenGrantId}/revoke` });
    expect(await authenticateToken(portal.db, grant.generatedToken)).toEqual({ ok: false, reason: 'revoked' });

    const expiring = await createTokenAs(portal, 'operator', DEMO.contoso, { name: 'Expiring', lifetimeYears: 1 });
    const later = new Date(Date.now() + 366 * 86_400_000 * 1.01);
    expect(await authenticateToken(portal.db, expiring.generatedToken, later)).toEqual({
      ok: false,
      reason: 'expired',
    });

    expect(await authenticateToken(portal.db, generateApiToken().token)).toEqual({ ok: false, reason: 'unknown' });
    expect(await authenticateToken(portal.db, 'Bearer nonsense')).toEqual({ ok: false, reason: 'malformed' });
    const last = expiring.generatedToken.at(-1) === 'A' ? 'B' : 'A';
    expect(await authenticateToken(portal.db, `${expiring.generatedToken.slice(0, -1)}${last}`)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('refuses the tokens of a disabled tenant', async () => {
    const tenant = await createTenantAs(portal, 'admin', { name: 'Soon disabled' });
    const grant = await createTokenAs(portal, 'admin', tenant.tenantId);
    await portal.as('admin', { method: 'POST', url: `/v1/tenants/toggledisabled/${tenant.tenantId}` });
    expect(await authenticateToken(portal.db, grant.generatedToken)).toEqual({ ok: false, reason: 'tenant-disabled' });
  });

  it('requires a name and a lifetime on create, with the spec’s lifetimes only', async () => {
    const response = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/tokens',
      payload: { tenantId: DEMO.contoso, name: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      name: ['Please enter a name.'],
      lifetimeYears: ['Please choose a lifetime.'],
    });
    const five = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/tokens',
      payload: { tenantId: DEMO.contoso, name: 'x', lifetimeYears: 5 },
    });
    expect(five.statusCode).toBe(400);
  });

  it('renames a token without changing it', async () => {
    const grant = await createTokenAs(portal, 'operator', DEMO.contoso, { name: 'Rename me' });
    const response = await portal.as('operator', {
      method: 'POST',
      url: `/v1/tokens/${grant.tokenGrantId}`,
      payload: { name: 'Renamed', description: 'Lab agents' },
    });
    expect(response.json()).toMatchObject({
      name: 'Renamed',
      description: 'Lab agents',
      tokenPrefix: grant.tokenPrefix,
    });
    expect((await authenticateToken(portal.db, grant.generatedToken)).ok).toBe(true);
  });
});

describe('work unit settings', () => {
  it('creates a category with a subcategory and lists them as the screen asks', async () => {
    const staff = await createStaffedTenant(portal);
    const endUser = `end-${staff.userName}`;
    await createUserIn(portal, endUser, ['WorkUnits:view:mine'], staff.tenantId);
    const category = await createCategoryAs(portal, staff.userName, staff.tenantId, {
      name: 'Hardware',
      isVisibleInResolutionCenter: true,
    });
    const sub = await portal.as(staff.userName, {
      method: 'PUT',
      url: '/v1/workunitsubcategories',
      payload: { workUnitCategoryId: category.workUnitCategoryId, name: 'Laptop' },
    });
    expect(sub.statusCode).toBe(200);
    const list = await portal.as(staff.userName, {
      method: 'GET',
      url: `/v1/workunitcategories?$filter=isEnabled eq true and workUnitCategoryId eq ${category.workUnitCategoryId}&$orderby=workUnitCategoryId asc&$expand=tenant,workUnitType&$count=true`,
    });
    expect(list.json().value[0]).toMatchObject({
      name: 'Hardware',
      tenant: { tenantId: staff.tenantId, name: staff.name },
      workUnitType: { workUnitTypeId: 1, name: 'Incident' },
    });
    const subs = await portal.as(staff.userName, {
      method: 'GET',
      url: `/v1/workunitsubcategories?$filter=workUnitCategoryId eq ${category.workUnitCategoryId}`,
    });
    expect(subs.json().value.map((s: { name: string }) => s.name)).toEqual(['Laptop']);
    const lookup = await portal.as(endUser, { method: 'GET', url: '/api/generallookup/workunitcatgories' });
    expect(lookup.json()).toContainEqual(
      expect.objectContaining({ name: 'Hardware', isVisibleInResolutionCenter: true }),
    );
    const subLookup = await portal.as(endUser, { method: 'GET', url: '/api/generallookup/workunitsubcatgories' });
    expect(subLookup.json()).toContainEqual({
      workUnitSubcategoryId: sub.json().workUnitSubcategoryId,
      workUnitCategoryId: category.workUnitCategoryId,
      name: 'Laptop',
    });
  });

  it('requires a name and a work unit type ("Please choose a work unit type.")', async () => {
    const response = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/workunitcategories',
      payload: { tenantId: DEMO.contoso, name: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      name: ['Please enter a name.'],
      workUnitTypeId: ['Please choose a work unit type.'],
    });
    const unknownType = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/workunitcategories',
      payload: { tenantId: DEMO.contoso, name: 'X', workUnitTypeId: 99 },
    });
    expect(unknownType.json().errors).toEqual({ workUnitTypeId: ['Please choose a work unit type.'] });
  });

  it('refuses a category name the tenant already has, whatever its case, with a 400 on the name', async () => {
    const tenant = await createTenantAs(portal, 'admin');
    const first = await createCategoryAs(portal, 'admin', tenant.tenantId, { name: 'Printers' });
    const again = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/workunitcategories',
      payload: { tenantId: tenant.tenantId, name: ' printers ', workUnitTypeId: 1 },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      message: CATEGORY_MESSAGES.categoryNameTaken,
      errors: { name: [CATEGORY_MESSAGES.categoryNameTaken] },
    });
    const second = await createCategoryAs(portal, 'admin', tenant.tenantId, { name: 'Scanners' });
    const renamed = await portal.as('admin', {
      method: 'POST',
      url: `/v1/workunitcategories/${second.workUnitCategoryId}`,
      payload: { tenantId: tenant.tenantId, name: 'PRINTERS', workUnitTypeId: 1 },
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().errors).toEqual({ name: [CATEGORY_MESSAGES.categoryNameTaken] });
    // The category keeps its own name, another tenant may use the same one.
    const kept = await portal.as('admin', {
      method: 'POST',
      url: `/v1/workunitcategories/${first.workUnitCategoryId}`,
      payload: { tenantId: tenant.tenantId, name: 'Printers', workUnitTypeId: 1, isEnabled: false },
    });
    expect(kept.statusCode).toBe(200);
    const other = await createTenantAs(portal, 'admin');
    await createCategoryAs(portal, 'admin', other.tenantId, { name: 'Printers' });
  });

  it('manages work unit types only with WorkUnits.Types permission', async () => {
    expect(
      (await portal.as('operator', { method: 'PUT', url: '/v1/workunittypes', payload: { name: 'Problem' } }))
        .statusCode,
    ).toBe(403);
    const created = await portal.as('admin', { method: 'PUT', url: '/v1/workunittypes', payload: { name: 'Problem' } });
    expect(created.json()).toEqual({ workUnitTypeId: 6, name: 'Problem', enabled: true });
    const disabled = await portal.as('admin', {
      method: 'POST',
      url: '/v1/workunittypes/6',
      payload: { name: 'Problem', enabled: false },
    });
    expect(disabled.json().enabled).toBe(false);
    const lookup = await portal.as('operator', { method: 'GET', url: '/api/generallookup/workunittypes' });
    expect(lookup.json().map((t: { name: string }) => t.name)).not.toContain('Problem');
    const duplicate = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/workunittypes',
      payload: { name: 'incident' },
    });
    expect(duplicate.statusCode).toBe(400);
  });
});

describe('nothing secret is stored in plain text', () => {
  it('holds no secret value and no token anywhere in the database', async () => {
    const secretValue = `plain-${Math.random().toString(36).slice(2)}-secret`;
    await portal.as('admin', {
      method: 'PUT',
      url: `/v1/tenants/${DEMO.contoso}/secrets`,
      payload: { name: 'dump.check', value: secretValue },
    });
    const { generatedToken } = await createTokenAs(portal, 'admin', DEMO.contoso, { name: 'Dump check' });
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(portal.db);
    expect(tables.rows.length).toBeGreaterThan(10);
    for (const { table_name } of tables.rows) {
      const rows = await sql<{ text: string }>`SELECT t::text AS text FROM ${sql.table(table_name)} AS t`.execute(
        portal.db,
      );
      for (const row of rows.rows) {
        expect(row.text, table_name).not.toContain(secretValue);
        expect(row.text, table_name).not.toContain(generatedToken);
      }
    }
  });
});

describe('review fixes: concurrency, partial updates, audit scope', () => {
  it('serves two concurrent toggles one after the other, ending where it started', async () => {
    const tenant = await createTenantAs(portal, 'admin', { name: 'Toggled twice' });
    const [a, b] = await Promise.all([
      portal.as('admin', { method: 'POST', url: `/v1/tenants/toggledisabled/${tenant.tenantId}` }),
      portal.as('admin', { method: 'POST', url: `/v1/tenants/toggledisabled/${tenant.tenantId}` }),
    ]);
    expect([a.json().enabled, b.json().enabled].sort()).toEqual([false, true]);
    const final = await portal.as('admin', { method: 'GET', url: `/v1/tenants(${tenant.tenantId})` });
    expect(final.json().enabled).toBe(true);
  });

  it('refuses a custom field named like a stored one when only the new field is sent', async () => {
    const tenant = await createTenantAs(portal, 'admin', {
      name: 'Partial fields',
      workUnitField1: field('Region', 1),
    });
    const response = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${tenant.tenantId}`,
      payload: { name: 'Partial fields', workUnitField2: field('Region', 1) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.workUnitField2).toEqual(['Can not have duplicate custom fields.']);
  });

  it('shows another tenant’s change history to nobody who may not touch that tenant', async () => {
    const grant = await createTokenAs(portal, 'operator', DEMO.contoso, { name: 'History probe' });
    const own = await portal.as('operator', {
      method: 'GET',
      url: `/v1/auditEvents?entityType=tokenGrant&entityId=${grant.tokenGrantId}`,
    });
    expect(own.json().value).toHaveLength(1);
    const probe = await portal.as('operator2', {
      method: 'GET',
      url: `/v1/auditEvents?entityType=tokenGrant&entityId=${grant.tokenGrantId}`,
    });
    expect(probe.json().value).toEqual([]);
  });

  it('hides the Legacy type and relabels Request by id, whatever they are named', async () => {
    await portal.as('admin', {
      method: 'POST',
      url: '/v1/workunittypes/4',
      payload: { name: 'Service Request', enabled: true },
    });
    const types = (await portal.as('operator', { method: 'GET', url: '/api/generallookup/workunittypes' })).json<
      { workUnitTypeId: number; name: string }[]
    >();
    expect(types.find((t) => t.workUnitTypeId === 4)?.name).toBe('User Request');
    expect(types.some((t) => t.workUnitTypeId === 5)).toBe(false);
  });
});
