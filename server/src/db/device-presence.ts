import { sql, type RawBuilder } from 'kysely';
import { ONLINE_MISSED_HEARTBEATS } from '@cfs/contracts/home';
import type { TenantScope } from '../auth/tenant-scope.js';
import type { Db } from './database.js';
import { scoped } from './scoped.js';

/**
 * Whether a device is online: its agent's last contact is more recent than two of its heartbeat
 * intervals (one missed heartbeat is late, not yet offline). A device that never reported is
 * offline. Shared by the devices grid's `isOnline` filter and the Home dashboard's devices tile,
 * so both count the same devices.
 */
export function deviceOnlineSql(
  lastContact: RawBuilder<unknown>,
  heartbeatInterval: RawBuilder<unknown>,
): RawBuilder<boolean> {
  return sql<boolean>`(${lastContact} IS NOT NULL AND ${lastContact} >= now() - (${heartbeatInterval} * ${ONLINE_MISSED_HEARTBEATS}) * interval '1 second')`;
}

/**
 * The device's id when it is there (not deleted) and of the caller's tenants, else undefined: what
 * a read of the device's own rows (its logs, its inventory) asks first, without reading the device
 * itself.
 */
export async function visibleDevice(
  db: Db,
  scope: TenantScope,
  deviceId: string,
): Promise<{ device_id: string } | undefined> {
  return scoped(db, scope)
    .selectFrom('device')
    .select('device_id')
    .where('device_id', '=', deviceId)
    .where('is_deleted', '=', false)
    .executeTakeFirst();
}
