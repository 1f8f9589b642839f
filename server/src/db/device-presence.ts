import { sql, type RawBuilder } from 'kysely';
import { ONLINE_MISSED_HEARTBEATS } from '@cfs/contracts/home';

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
