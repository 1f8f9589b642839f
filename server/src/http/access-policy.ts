import type { Area, Verb } from '@cfs/contracts/permissions';

/** A permission as roles hold it: `Tenants:view`, `WorkUnits:view:mine`. */
export type PermissionName = `${Area}:${Verb}` | 'WorkUnits:view:mine';

/**
 * Who may call a route:
 * - 'public': anyone, signed in or not;
 * - 'signed-in': any signed-in user, whatever their permissions;
 * - a permission, or a list of which any one will do;
 * - `{ machine: [...] }`: a device agent's credential ('device') and/or a tenant API token ('token'), never a person.
 */
export type Access = 'public' | 'signed-in' | PermissionName | readonly PermissionName[] | { readonly machine: readonly ('device' | 'token')[] };

/**
 * Who may call each route of an area, keyed by `METHOD /path` as the area registers it (a HEAD
 * route follows its GET). Written by hand, apart from the routes' own `config.permission`: the
 * authorization matrix (server/test/authorization-matrix.test.ts) calls every registered route as
 * every kind of caller and holds the answers to this table, so a route whose declaration is
 * loosened, or a new route nobody entered here, fails it.
 *
 * @example
 *   export const tokensAccess = defineAccessPolicy({
 *     'GET /v1/tokens': 'Tokens:view',
 *     'PUT /v1/tokens': 'Tokens:create',
 *   });
 */
export type AccessPolicy = Readonly<Record<string, Access>>;

export function defineAccessPolicy(policy: AccessPolicy): AccessPolicy {
  return policy;
}

/** The routes the app itself registers: the API documentation, the OpenAPI document, the web app's files. */
export const APP_ACCESS = defineAccessPolicy({
  'GET /openapi.json': 'public',
  'GET /docs': 'public',
  'GET /docs/json': 'public',
  'GET /docs/yaml': 'public',
  'GET /docs/static/index.html': 'public',
  'GET /docs/static/swagger-initializer.js': 'public',
  'GET /docs/static/*': 'public',
  'GET /*': 'public',
});
