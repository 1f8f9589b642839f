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
