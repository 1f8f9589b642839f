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
