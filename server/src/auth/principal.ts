import type { PermissionSet } from '@cfs/contracts/permissions';
import type { CurrentUser } from '@cfs/contracts/shell';
import type { TenantScope } from './tenant-scope.js';

/** The signed-in caller as every route sees it. */
export interface Principal {
  userId: string;
  userName: string;
  displayName: string;
  email: string | null;
  permissions: PermissionSet;
  /** The caller's permissions as prefixed strings, as `GET /v1/permissions` answers. */
  permissionStrings: string[];
  tenantScope: TenantScope;
  /** Names of the assignment groups the user belongs to (the work units' Assignment Group values). */
  groups: string[];
  /** The tenant and subscription the user works in (the header picker's context). */
  tenantId: string | null;
  subscriptionId: string | null;
}

/** The caller as `GET /v1/currentUser` (and the session's start) describes them. */
export function currentUserOf(principal: Principal): CurrentUser {
  return {
    name: principal.displayName,
    userName: principal.userName,
    email: principal.email,
    tenantId: principal.tenantId,
    subscriptionId: principal.subscriptionId,
    groups: principal.groups,
  };
}
