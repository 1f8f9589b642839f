import type { Permission } from '@cfs/contracts/permissions';
import type { MachineCaller } from '../auth/machine-callers.js';
import type { Principal } from '../auth/principal.js';
import { HttpError } from './errors.js';

/**
 * What a route needs, declared in its `config.permission`:
 * - a Permission (`{ area: 'Tenants', verb: 'view' }`): a signed-in caller holding it;
 * - a list of Permissions: a signed-in caller holding any of them;
 * - 'authenticated': any signed-in caller (their own profile, their own permissions);
 * - 'machine': a device agent's own credential or a tenant API token (`machineOf(request)`: the
 *   agent API and packet ingestion);
 * - 'public': no caller at all — only health, the sign-in configuration and the identity
 *   provider's own endpoints (a test holds that list).
 */
export type RoutePermission = Permission | readonly Permission[] | 'authenticated' | 'machine' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
  }
  interface FastifyRequest {
    principal: Principal | undefined;
    machine: MachineCaller | undefined;
  }
}

export function perm(area: Permission['area'], verb: 'create' | 'edit' | 'view' | 'delete'): Permission {
  return { area, verb };
}

/** The caller of a route that declared a permission; the gate has already checked it. */
export function principalOf(request: { principal: Principal | undefined }): Principal {
  if (!request.principal) throw new HttpError(401, 'Authentication is required.');
  return request.principal;
}

/** The machine caller of a route that declared 'machine'; the gate has already checked it. */
export function machineOf(request: { machine: MachineCaller | undefined }): MachineCaller {
  if (!request.machine) throw new HttpError(401, 'Authentication is required.');
  return request.machine;
}
