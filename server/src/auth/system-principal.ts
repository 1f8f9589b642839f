import { PermissionSet } from '@cfs/contracts/permissions';
import type { Principal } from './principal.js';

/** What the portal names as the author of a row it writes itself: an id and a name saying what wrote it (a rule, a policy). */
export interface SystemActor {
  id: string;
  name: string;
}

/**
 * The portal acting in one tenant for a cause that is no user (a rule's action, the version
 * policy, the access request form, a compliance POA&M): the cause's id stands where a user's would
 * in history and the audit trail, its name says which cause. It holds no permission; the code that
 * acts for it decides what it may do.
 *
 * @example
 *   await createWorkUnit(db, systemPrincipal(tenantId, { id: RULE_ID, name: 'Rule: Disk full' }), input);
 */
export function systemPrincipal(tenantId: string, actor: SystemActor): Principal {
  const name = actor.name.slice(0, 200);
  return {
    userId: actor.id,
    userName: name,
    displayName: name,
    email: null,
    permissions: new PermissionSet([]),
    permissionStrings: [],
    tenantScope: { kind: 'some', tenantIds: [tenantId] },
    groups: [],
    tenantId,
    subscriptionId: null,
  };
}
