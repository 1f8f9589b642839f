import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../src/db/demo-ids.js';
import { createStaffedTenant, createSubscriptionAs, createUserIn, unique } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

describe('health and sign-in configuration', () => {
  it('answers /healthz with 200 once ready', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
  });

  it('gives the browser its OIDC client configuration without a token', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/api/generalLookup/oidcclientconfig' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      authority: 'http://portal.test/oidc',
      clientId: 'cfs-portal',
      lifetime: portal.config.sessionLifetimeSeconds,
      scope: 'openid profile email offline_access',
    });
  });

  it('matches the spec paths case-insensitively (generalLookup and generallookup)', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/api/generallookup/OIDCClientConfig' });
    expect(response.statusCode).toBe(200);
  });
});

describe('authentication', () => {
  it('answers 401 without a token', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/v1/currentUser' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Authentication is required.' });
  });

  it('answers 401 for a malformed token', async () => {
    const response = await portal.app.inject({
      method: 'GET',
      url: '/v1/currentUser',
      headers: { authorization: 'Bearer not-a-jwt' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('answers 401 for a token signed by a key that is not the provider’s', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    const forged = await new SignJWT({ client_id: 'cfs-portal' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'forged' })
      .setIssuer(portal.config.oidc.authority)
      .setAudience(portal.config.oidc.audience)
      .setSubject('admin')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    expect(jwk.kty).toBe('RSA');
    const response = await portal.app.inject({
      method: 'GET',
      url: '/v1/currentUser',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('answers 401 for a user who has been disabled since the token was issued', async () => {
    const token = await portal.token('operator2');
    await portal.db.updateTable('app_user').set({ enabled: false }).where('user_name', '=', 'operator2').execute();
    try {
      const response = await portal.app.inject({
        method: 'GET',
        url: '/v1/currentUser',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(401);
    } finally {
      await portal.db.updateTable('app_user').set({ enabled: true }).where('user_name', '=', 'operator2').execute();
    }
  });
});

describe('tokens for unknown users', () => {
  it('answers 401 for a validly signed token of a user the portal does not know', async () => {
    const response = await portal.as('nobody-here', { method: 'GET', url: '/v1/currentUser' });
    expect(response.statusCode).toBe(401);
  });
});

describe('current user and permissions', () => {
  it('describes the signed-in user with their tenant and subscription', async () => {
    const tenant = await createStaffedTenant(portal);
    const userName = `person-${unique()}`;
    const displayName = `Person ${unique()}`;
    const groups = [`Group ${unique()}`];
    await createUserIn(portal, userName, [], tenant.tenantId, {
      subscriptionId: tenant.subscriptionId,
      displayName,
      assignmentGroups: groups,
    });
    const response = await portal.as(userName, { method: 'GET', url: '/v1/currentUser' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      name: displayName,
      userName,
      email: `${userName}@cfs.example`,
      tenantId: tenant.tenantId,
      subscriptionId: tenant.subscriptionId,
      groups,
    });
  });

  it("names the signed-in user's assignment groups, none for a user in no group", async () => {
    const tenant = await createStaffedTenant(portal);
    const [grouped, ungrouped] = [`grouped-${unique()}`, `ungrouped-${unique()}`];
    const groups = [`Group ${unique()}`, `Group ${unique()}`];
    await createUserIn(portal, grouped, [], tenant.tenantId, { assignmentGroups: groups });
    await createUserIn(portal, ungrouped, [], tenant.tenantId);
    expect((await portal.as(grouped, { method: 'GET', url: '/v1/currentUser' })).json()).toMatchObject({
      userName: grouped,
      groups,
    });
    expect((await portal.as(ungrouped, { method: 'GET', url: '/v1/currentUser' })).json()).toMatchObject({
      userName: ungrouped,
      groups: [],
    });
  });

  it('gives the end user only WorkUnits:view:mine', async () => {
    const response = await portal.as('enduser', { method: 'GET', url: '/v1/permissions' });
    expect(response.json()).toEqual(['CFS.WorkUnits:view:mine']);
  });

  it('gives the admin every permission of every area', async () => {
    const permissions = (await portal.as('admin', { method: 'GET', url: '/v1/permissions' })).json<string[]>();
    expect(permissions).toContain('CFS.Tenants:edit');
    expect(permissions).toContain('CFS.WorkUnits.Categories:delete');
    expect(permissions).toContain('CFS.Devices.HostAccess:edit');
    expect(permissions).toContain('CFS.Devices.Scripts:edit');
    expect(permissions).toContain('CFS.ServiceLevels:edit');
    expect(permissions).toHaveLength(27 * 4 + 1);
  });

  it('gives the operator staff permissions but no tenant administration', async () => {
    const permissions = (await portal.as('operator', { method: 'GET', url: '/v1/permissions' })).json<string[]>();
    expect(permissions).toContain('CFS.Devices:edit');
    expect(permissions).toContain('CFS.Tokens:edit');
    expect(permissions).not.toContain('CFS.Tenants:view');
    // Reading files on a device is an administrator's: operators are staff of a tenant, not of its machines.
    expect(permissions.filter((permission) => permission.includes('HostAccess'))).toEqual([]);
  });

  it('serves a generated avatar with the user’s initials', async () => {
    const userName = `avatar-${unique()}`;
    await createUserIn(portal, userName, [], DEMO.contoso, { displayName: `Quinn Zimmer ${unique()}` });
    const response = await portal.as(userName, { method: 'GET', url: '/api/auth/currentUserPhoto' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('image/svg+xml');
    expect(response.body).toContain('>QZ</text>');
  });

  it('uses a configured permission prefix', async () => {
    const other = await createTestPortal({ PERMISSION_PREFIX: 'Acme.CFS' });
    try {
      const response = await other.as('enduser', { method: 'GET', url: '/v1/permissions' });
      expect(response.json()).toEqual(['Acme.CFS.WorkUnits:view:mine']);
    } finally {
      await other.close();
    }
  });
});

describe('lookups', () => {
  it('lists only the tenants the caller may touch', async () => {
    const [mine, theirs] = [await createStaffedTenant(portal), await createStaffedTenant(portal)];
    const staff = (await portal.as(mine.userName, { method: 'GET', url: '/api/generallookup/tenants' })).json();
    expect(staff).toEqual([{ tenantId: mine.tenantId, name: mine.name }]);
    const admin = (await portal.as('admin', { method: 'GET', url: '/api/generallookup/tenants' })).json<
      { tenantId: string }[]
    >();
    // Every enabled tenant: disabled ones leave the pickers.
    const every = await portal.db.selectFrom('tenant').select('tenant_id').where('enabled', '=', true).execute();
    expect(admin.map((tenant) => tenant.tenantId).sort()).toEqual(every.map((tenant) => tenant.tenant_id).sort());
    expect(admin.map((tenant) => tenant.tenantId)).toEqual(expect.arrayContaining([mine.tenantId, theirs.tenantId]));
  });

  it('lists only the subscriptions of the caller’s tenants', async () => {
    const tenant = await createStaffedTenant(portal);
    await createSubscriptionAs(portal, 'admin', tenant.tenantId);
    await createStaffedTenant(portal);
    const rows = (await portal.as(tenant.userName, { method: 'GET', url: '/api/generallookup/subscriptions' })).json<
      { tenantId: string }[]
    >();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.tenantId === tenant.tenantId)).toBe(true);
  });

  it('hides the Legacy type and shows Request as User Request', async () => {
    const rows = (await portal.as('operator', { method: 'GET', url: '/api/generallookup/workunittypes' })).json<
      { name: string }[]
    >();
    expect(rows.map((row) => row.name)).toEqual(['Incident', 'Change Request', 'Intake', 'User Request']);
  });

  it('answers the environment from the server configuration', async () => {
    const response = await portal.as('enduser', { method: 'GET', url: '/api/generalLookup/environment' });
    expect(response.json()).toMatchObject({ environmentName: 'CFS Portal', environmentColor: '#1565c0' });
    const version = await portal.as('enduser', { method: 'GET', url: '/api/generalLookup/version' });
    expect(version.json()).toEqual({ version: '0.1.0' });
  });

  it("answers the shell's start-up calls in one: the session start is what each of them answers, for each kind of user", async () => {
    for (const user of ['admin', 'operator', 'enduser']) {
      const get = async (url: string) => {
        const response = await portal.as(user, { method: 'GET', url });
        expect(response.statusCode, `${user} ${url}`).toBe(200);
        return response.json<unknown>();
      };
      const start = await get('/v1/session');
      expect(start).toEqual({
        permissions: await get('/v1/permissions'),
        currentUser: await get('/v1/currentUser'),
        tenants: await get('/api/generallookup/tenants'),
        subscriptions: await get('/api/generallookup/subscriptions'),
        environment: await get('/api/generalLookup/environment'),
        version: ((await get('/api/generalLookup/version')) as { version: string }).version,
      });
      expect((start as { tenants: unknown[] }).tenants.length).toBeGreaterThan(0);
    }
    expect((await portal.app.inject({ method: 'GET', url: '/v1/session' })).statusCode).toBe(401);
  });

  it('lists IANA time zones, rule types, operators and occurrence options', async () => {
    const zones = (await portal.as('operator', { method: 'GET', url: '/api/generalLookup/timezones' })).json<
      string[]
    >();
    expect(zones).toContain('America/New_York');
    const ruleTypes = (await portal.as('operator', { method: 'GET', url: '/api/generalLookup/ruletypes' })).json<
      { name: string }[]
    >();
    expect(ruleTypes.map((r) => r.name)).toEqual([
      'Ingestion',
      'Correlation',
      'History',
      'WorkUnit',
      'Maintenance',
      'Aggregation',
    ]);
    const operators = (await portal.as('operator', { method: 'GET', url: '/api/generalLookup/operators' })).json<
      unknown[]
    >();
    expect(operators).toHaveLength(14);
    const occurrences = await portal.as('operator', { method: 'GET', url: '/api/generalLookup/occuranceoptions' });
    expect(occurrences.statusCode).toBe(200);
  });
});

describe('tenant and subscription context', () => {
  it('stores the chosen tenant and subscription', async () => {
    const response = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenantSubscriptionContext/${DEMO.fabrikam}`,
      payload: { tenant: DEMO.fabrikam, subscriptionId: DEMO.fabrikamLab },
    });
    expect(response.statusCode).toBe(200);
    const me = (await portal.as('admin', { method: 'GET', url: '/v1/currentUser' })).json();
    expect(me).toMatchObject({ tenantId: DEMO.fabrikam, subscriptionId: DEMO.fabrikamLab });
  });

  it('rejects a subscription of another tenant with 400', async () => {
    const response = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenantSubscriptionContext/${DEMO.fabrikam}`,
      payload: { tenant: DEMO.fabrikam, subscriptionId: DEMO.contosoProduction },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.subscriptionId).toEqual(['The subscription does not belong to the tenant.']);
  });

  it('answers 404 for a tenant the caller may not touch', async () => {
    const response = await portal.as('operator2', {
      method: 'POST',
      url: `/v1/tenantSubscriptionContext/${DEMO.contoso}`,
      payload: { tenant: DEMO.contoso, subscriptionId: DEMO.contosoProduction },
    });
    expect(response.statusCode).toBe(404);
  });

  it('answers 400 with the picker’s messages when nothing is chosen', async () => {
    const response = await portal.as('operator', {
      method: 'POST',
      url: `/v1/tenantSubscriptionContext/${DEMO.contoso}`,
      payload: {},
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      tenant: ['Please choose a tenant.'],
      subscriptionId: ['Please choose a subscription.'],
    });
  });

  it('answers 400 for a malformed JSON body, never 500', async () => {
    const response = await portal.as('operator', {
      method: 'POST',
      url: `/v1/tenantSubscriptionContext/${DEMO.contoso}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"tenant":',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('feature flags', () => {
  it('reports a feature off unless configured', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/v1/features/I3ERequestForm/enabled' });
    expect(response.json()).toBe(false);
  });

  it('reports a configured feature on', async () => {
    const other = await createTestPortal({ FEATURES: 'I3ERequestForm' });
    try {
      const response = await other.app.inject({ method: 'GET', url: '/v1/features/I3ERequestForm/enabled' });
      expect(response.json()).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('API documentation', () => {
  it('serves the OpenAPI document generated from the contract schemas', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/v1/tenantSubscriptionContext/{tenant}');
  });
});
