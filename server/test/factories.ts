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
