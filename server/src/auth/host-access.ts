import { DEVICE_OPERATION_MESSAGES } from '@cfs/contracts/device-operations';
import { OPERATION_TYPES, OPERATION_TYPE_PERMISSIONS, PACKAGE_TYPES } from '@cfs/contracts/fleet';
import { SCRIPTS_PERMISSION } from '@cfs/contracts/permissions';
import type { Db } from '../db/database.js';
import { scoped } from '../db/scoped.js';
import { HttpError } from '../http/errors.js';
import type { Principal } from './principal.js';

/**
 * Refuses (403) a caller who sets up, changes or runs an operation of a type that reads files or
 * runs commands on a device without that type's own permission (OPERATION_TYPE_PERMISSIONS: Read
 * File needs Devices.HostAccess, Script Devices.Scripts). The route's own permission (Devices edit,
 * Packages edit) is not enough: it is what lets an operator rename a device.
 */
export function requireHostAccess(user: Principal, operationTypeIds: readonly number[]): void {
  for (const type of operationTypeIds) {
    const needed = OPERATION_TYPE_PERMISSIONS[type];
    if (!needed || user.permissions.allows(needed)) continue;
    throw new HttpError(
      403,
      needed.area === SCRIPTS_PERMISSION.area
        ? DEVICE_OPERATION_MESSAGES.scriptsRequired
        : DEVICE_OPERATION_MESSAGES.hostAccessRequired,
    );
  }
}

/**
 * Refuses (403) a caller without Devices.Scripts who changes what a Script operation runs: a new
 * version of a package that has Script operations, or the version of one installed on a device.
 * Setting up the operation is not the only way to choose a script: its content is the installed
 * version's file. A version of the shared agent package (type AgentRunner) is the agent itself,
 * which runs with the machine's rights: uploading one needs Devices.Scripts too.
 */
export async function requireScriptsForPackages(
  executor: Db,
  user: Principal,
  packageIds: readonly string[],
): Promise<void> {
  if (packageIds.length === 0 || user.permissions.allows(SCRIPTS_PERMISSION)) return;
  const ids = [...new Set(packageIds)];
  const script = await executor
    .selectFrom('operation')
    .select('package_id')
    .where('package_id', 'in', ids)
    .where('operation_type_id', '=', OPERATION_TYPES.Script)
    .limit(1)
    .executeTakeFirst();
  const agent =
    script ??
    (await scoped(executor, user.tenantScope)
      .selectFrom('package')
      .select('package_id')
      .where('package_id', 'in', ids)
      .where('package_type_id', '=', PACKAGE_TYPES.AgentRunner)
      .limit(1)
      .executeTakeFirst());
  if (agent) throw new HttpError(403, DEVICE_OPERATION_MESSAGES.scriptsRequired);
}
