import { randomUUID } from 'node:crypto';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/seed.js';
import { scoped } from '../src/db/scoped.js';
import type { TestPortal } from './harness.js';

/** Small factories for API tests: each creates through the API as a user, as a person would. */
export async function createTenantAs(portal: TestPortal, user: string, body: Record<string, unknown> = {}) {
  const response = await portal.as(user, { method: 'PUT', url: '/v1/tenants', payload: { name: `Tenant ${Math.random().toString(36).slice(2, 8)}`, ...body } });
  if (response.statusCode !== 200) throw new Error(`createTenant: ${response.statusCode} ${response.body}`);
  return response.json<{ tenantId: string; name: string }>();
}

export async function createTokenAs(portal: TestPortal, user: string, tenantId: string, body: Record<string, unknown> = {}) {
  const response = await portal.as(user, { method: 'PUT', url: '/v1/tokens', payload: { tenantId, name: 'Agent token', lifetimeYears: 1, ...body } });
  if (response.statusCode !== 200) throw new Error(`createToken: ${response.statusCode} ${response.body}`);
  return response.json<{ tokenGrantId: string; generatedToken: string; tokenPrefix: string; expiresOn: string | null }>();
}

export async function createCategoryAs(portal: TestPortal, user: string, tenantId: string, body: Record<string, unknown> = {}) {
  const response = await portal.as(user, { method: 'PUT', url: '/v1/workunitcategories', payload: { tenantId, name: 'Network', workUnitTypeId: 1, ...body } });
  if (response.statusCode !== 200) throw new Error(`createCategory: ${response.statusCode} ${response.body}`);
  return response.json<{ workUnitCategoryId: number }>();
}

/**
 * The work units grid's search box as it sends a term (web: `searchClause` over
 * `WORK_UNIT_SEARCH_FIELDS`): case-insensitive contains over the text fields, or equality with
 * Exact Match, and the id when the text is a number, OR-ed.
 */
export function workUnitSearch(term: string, exactMatch = false): string {
  const texts = ['title', 'referenceId', 'description', 'tenant/name', 'assignedTo', 'stakeHolderFullName', 'stakeHolderPhoneNumber', 'stakeHolderEmailAddress'];
  const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const clauses = texts.map((path) => (exactMatch ? `${path} eq ${quoted(term)}` : `contains(tolower(${path}),${quoted(term.toLowerCase())})`));
  if (/^-?\d+(\.\d+)?$/.test(term)) clauses.splice(5, 0, `workUnitId eq ${Number(term)}`);
  return `(${clauses.join(' or ')})`;
}

/* Devices --------------------------------------------------------------------------------------
 * Made in the database, as promoting a pending device would (enrolment is the agent API's part). */
let deviceCount = 0;
export async function createDevice(portal: TestPortal, tenantId: string, subscriptionId: string, values: { name?: string; operatingSystemId?: number; locationId?: string | null } = {}) {
  deviceCount += 1;
  const row = await portal.db
    .insertInto('device')
    .values({
      tenant_id: tenantId,
      subscription_id: subscriptionId,
      name: values.name ?? `Device ${deviceCount} ${Math.random().toString(36).slice(2, 8)}`,
      operating_system_id: values.operatingSystemId ?? 0,
      location_id: values.locationId ?? null,
      created_by: 'test',
      modified_by: 'test',
    })
    .returning(['device_id', 'name', 'tenant_id', 'subscription_id'])
    .executeTakeFirstOrThrow();
  return { deviceId: row.device_id, name: row.name, tenantId: row.tenant_id, subscriptionId: row.subscription_id };
}

/**
 * A user of one tenant (or of none) holding exactly `permissions` (a role of its own), made in the database as
 * the directory would: what a test needs to ask as someone limited to one tenant or one permission.
 */
export async function createUserIn(portal: TestPortal, userName: string, permissions: readonly string[], tenantId: string | null, options: { subscriptionId?: string; enabled?: boolean } = {}): Promise<void> {
  const { db } = portal;
  const role = await db.insertInto('app_role').values({ name: `role-${userName}`, description: 'test' }).returning('role_id').executeTakeFirstOrThrow();
  if (permissions.length) await db.insertInto('role_permission').values(permissions.map((permission) => ({ role_id: role.role_id, permission }))).execute();
  const user = await db
    .insertInto('app_user')
    .values({ user_name: userName, display_name: userName, email: `${userName}@cfs.example`, tenant_id: tenantId, subscription_id: options.subscriptionId ?? null, enabled: options.enabled ?? true })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  await db.insertInto('user_role').values({ user_id: user.user_id, role_id: role.role_id }).execute();
  if (tenantId) await db.insertInto('user_tenant').values({ user_id: user.user_id, tenant_id: tenantId }).execute();
}

/* Actions --------------------------------------------------------------------------------------
 * An HTTP action (type 4) written to the database as it is stored, past the save-time check of its
 * endpoint: what the runner does with a URL is judged at the call. Contoso's unless a tenant is given. */
export async function createHttpAction(portal: TestPortal, values: { url: string; method?: string; headers?: string; body?: string; tenantId?: string | null }): Promise<string> {
  const row = await scoped(portal.db, ALL_TENANTS)
    .insertInto('action_definition', {
      name: `Hook ${randomUUID().slice(0, 8)}`,
      action_definition_type_id: 4,
      tenant_id: values.tenantId === undefined ? DEMO.contoso : values.tenantId,
      endpoint_url: values.url,
      http_method: values.method ?? 'POST',
      headers: values.headers ?? null,
      body: values.body ?? null,
    })
    .returning('action_definition_id')
    .executeTakeFirstOrThrow();
  return row.action_definition_id;
}
