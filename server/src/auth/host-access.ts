import { DEVICE_OPERATION_MESSAGES } from '@cfs/contracts/device-operations';
import { OPERATION_TYPE_PERMISSIONS } from '@cfs/contracts/fleet';
import { SCRIPTS_PERMISSION } from '@cfs/contracts/permissions';
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
