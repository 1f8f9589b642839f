import { sql } from 'kysely';
import { DEVICE_LOGS_LIMIT, type Device, type LogEntry } from '@cfs/contracts/devices';
import { HEARTBEAT_METRICS } from '@cfs/contracts/fleet';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { visibleDevice, deviceOnlineSql } from '../../db/device-presence.js';
import { scoped } from '../../db/scoped.js';
import { orNotFound } from '../../http/errors.js';
import { deviceEntity } from './resource.js';

/**
 * A heartbeat metric of the latest packet as a number, null when absent or not a number: an
 * agent's malformed packet must not break the grid of every device.
 */
const metric = (name: string) =>
  sql<
    number | null
  >`CASE WHEN jsonb_typeof(packet_latest.message -> 'Metrics' -> ${sql.lit(name)}) = 'number' THEN (packet_latest.message -> 'Metrics' ->> ${sql.lit(name)})::float8 END`;

/**
 * The caller's devices that are not deleted, each with its latest packet's live values read in
 * the same statement (one LEFT JOIN by primary key; the packet's tenant must be the device's).
 */
export function devicesBase(db: Db, scope: TenantScope) {
  return scoped(db, scope)
    .selectFrom('device')
    .leftJoin('packet_latest', (join) =>
      join
        .onRef('packet_latest.entity_id', '=', 'device.device_id')
        .onRef('packet_latest.tenant_id', '=', 'device.tenant_id'),
    )
    .selectAll('device')
    .select([
      metric(HEARTBEAT_METRICS.cpuPercent).as('cpu_percent'),
      metric(HEARTBEAT_METRICS.memoryPercent).as('memory_percent'),
      'packet_latest.timestamp as packet_timestamp',
      deviceOnlineSql(sql.ref('device.last_contact'), sql.ref('device.heartbeat_interval')).as('is_online'),
    ])
    .where('device.is_deleted', '=', false);
}

/** GET v1/devices/{id}: 404 for a deleted device or another tenant's. */
export async function findDevice(db: Db, scope: TenantScope, deviceId: string): Promise<Device> {
  const row = orNotFound(
    await devicesBase(db, scope).where('device.device_id', '=', deviceId).executeTakeFirst(),
    'The device',
  );
  const location = row.location_id
    ? await scoped(db, scope)
        .selectFrom('location')
        .select(['location_id', 'name'])
        .where('location_id', '=', row.location_id)
        .executeTakeFirst()
    : undefined;
  return {
    ...deviceEntity.present(row),
    location: location ? { locationId: location.location_id, name: location.name } : null,
  };
}

/** GET v1/devices/{id}/logs: the newest entries first, at most DEVICE_LOGS_LIMIT (index device_log_device_idx). */
export async function findDeviceLogs(db: Db, scope: TenantScope, deviceId: string): Promise<LogEntry[]> {
  // Only whether the device is there and the caller's: the logs poll every 30 s with Auto-Refresh,
  // so not the whole device with its live values and location.
  orNotFound(await visibleDevice(db, scope, deviceId), 'The device');
  const rows = await scoped(db, scope)
    .selectFrom('device_log')
    .select(['log_entry_id', 'created', 'entry_type', 'detail'])
    .where('device_id', '=', deviceId)
    .orderBy('created', 'desc')
    .orderBy('log_entry_id', 'desc')
    .limit(DEVICE_LOGS_LIMIT)
    .execute();
  return rows.map((row) => ({
    logEntryId: Number(row.log_entry_id),
    created: row.created,
    entryType: row.entry_type,
    detail: row.detail,
  }));
}
