import { DEVICE_OPERATION_MESSAGES } from '@cfs/contracts/device-operations';
import { HOST_ACCESS_OPERATION_TYPES } from '@cfs/contracts/fleet';
import { HOST_ACCESS_PERMISSION } from '@cfs/contracts/permissions';
import { HttpError } from '../http/errors.js';
import type { Principal } from './principal.js';

/**
 * Refuses (403) a caller without HOST_ACCESS_PERMISSION who sets up, changes or runs an operation
 * of a type that reads files or runs commands on a device. The route's own permission (Devices
 * edit, Packages edit) is not enough: it is what lets an operator rename a device.
 */
export function requireHostAccess(user: Principal, operationTypeIds: readonly number[]): void {
  if (!operationTypeIds.some((type) => HOST_ACCESS_OPERATION_TYPES.includes(type))) return;
  if (!user.permissions.allows(HOST_ACCESS_PERMISSION))
    throw new HttpError(403, DEVICE_OPERATION_MESSAGES.hostAccessRequired);
}
