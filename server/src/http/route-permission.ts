import { AREAS, VERBS, type PermissionName } from '@cfs/contracts/permissions';
import type { MachineCaller } from '../auth/machine-callers.js';
import type { Principal } from '../auth/principal.js';
import { HttpError } from './errors.js';

/**
 * Who may call a route, declared once, in its `config.permission` (the gate reads nothing else):
 * - a permission (`'Tenants:view'`): a signed-in caller holding it;
 * - a list of permissions: a signed-in caller holding any of them;
 * - 'signed-in': any signed-in caller, whatever their permissions (their own profile, lookups);
 * - `{ machine: [...] }`: a device agent's own credential ('device') and/or a tenant API token
 *   ('token'), never a person (`machineOf(request)`: the agent API and packet ingestion);
 * - 'public': no caller at all: health, the sign-in configuration, the identity provider's own
 *   endpoints (the authorization matrix holds every route to its expected access, public ones too).
 *
 * @example
 *   app.get('/v1/locations/:id', { config: { permission: 'Locations:view' }, schema }, handler);
 */
export type RoutePermission =
  | PermissionName
  | readonly PermissionName[]
  | 'signed-in'
  | { readonly machine: readonly MachineCaller['kind'][] }
  | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
  }
  interface FastifyRequest {
    principal: Principal | undefined;
    machine: MachineCaller | undefined;
  }
}

const PERMISSION_NAMES: ReadonlySet<string> = new Set([
  ...AREAS.flatMap((area) => VERBS.map((verb) => `${area}:${verb}`)),
  'WorkUnits:view:mine',
]);
const MACHINE_KINDS: ReadonlySet<unknown> = new Set<MachineCaller['kind']>(['device', 'token']);

/**
 * What is wrong with a route's declaration, or undefined when it is one of the forms above: the
 * types hold the routes written in TypeScript, this holds whatever reaches the gate at run time.
 */
export function declarationProblem(permission: unknown): string | undefined {
  if (permission === undefined) return 'declares no permission';
  if (permission === 'public' || permission === 'signed-in') return undefined;
  if (typeof permission === 'string')
    return PERMISSION_NAMES.has(permission) ? undefined : `declares an unknown permission '${permission}'`;
  if (Array.isArray(permission)) {
    if (permission.length === 0) return 'declares an empty list of permissions';
    const unknown: unknown = permission.find((name) => typeof name !== 'string' || !PERMISSION_NAMES.has(name));
    return unknown === undefined ? undefined : `declares an unknown permission '${String(unknown)}'`;
  }
  if (typeof permission === 'object' && permission !== null && 'machine' in permission) {
    const kinds: unknown = permission.machine;
    if (Array.isArray(kinds) && kinds.length > 0 && kinds.every((kind) => MACHINE_KINDS.has(kind))) return undefined;
  }
  return `declares a permission the gate does not know: ${JSON.stringify(permission)}`;
}

/** The caller of a route that declared a permission; the gate has already checked it. */
export function principalOf(request: { principal: Principal | undefined }): Principal {
  if (!request.principal) throw new HttpError(401, 'Authentication is required.');
  return request.principal;
}

/** The machine caller of a route that declared `{ machine: [...] }`; the gate has already checked it. */
export function machineOf(request: { machine: MachineCaller | undefined }): MachineCaller {
  if (!request.machine) throw new HttpError(401, 'Authentication is required.');
  return request.machine;
}
