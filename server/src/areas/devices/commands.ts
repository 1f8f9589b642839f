import { sql } from 'kysely';
import { DEVICE_MESSAGES, type Device, type DeviceInput } from '@cfs/contracts/devices';
import { FLEET_MESSAGES } from '@cfs/contracts/fleet';
import { changedFields, entityAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import { BadRequestError, NotFoundError, orNotFound } from '../../http/errors.js';
import { findDevice } from './queries.js';
import { deviceEntity } from './resource.js';

/** The device, locked for the write: 404 when deleted or outside the caller's tenants. */
export async function lockDevice(tx: ScopedDb<Tx>, deviceId: string) {
  return orNotFound(
    await tx
      .selectFrom('device')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('is_deleted', '=', false)
      .forUpdate()
      .executeTakeFirst(),
    'The device',
  );
}

/** Records an action on the device in the change history, in the write's transaction. */
const recordChange = entityAudit('device', (row: { device_id: string; tenant_id: string }) => row.device_id);

const refused = (field: keyof DeviceInput, text: string) =>
  new BadRequestError(FLEET_MESSAGES.saveDeviceFailed, { [field]: [text] });

/** Tenant, subscription and location must be the caller's, the subscription and location the tenant's (spec 002 §5 Device). */
async function assertReferences(tx: ScopedDb<Tx>, input: DeviceInput): Promise<void> {
  if (!(await tx.hasTenant(input.tenantId))) throw refused('tenantId', DEVICE_MESSAGES.tenantRequired);
  const subscription = await tx
    .selectFrom('subscription')
    .select('tenant_id')
    .where('subscription_id', '=', input.subscriptionId)
    .executeTakeFirst();
  if (!subscription) throw refused('subscriptionId', DEVICE_MESSAGES.subscriptionRequired);
  if (subscription.tenant_id !== input.tenantId) throw refused('subscriptionId', DEVICE_MESSAGES.subscriptionOfTenant);
  if (input.locationId) {
    const location = await tx
      .selectFrom('location')
      .select('tenant_id')
      .where('location_id', '=', input.locationId)
      .executeTakeFirst();
    if (!location || (location.tenant_id !== null && location.tenant_id !== input.tenantId))
      throw refused('locationId', DEVICE_MESSAGES.locationOfTenant);
  }
}

/** The fields the audit trail compares. */
const audited = (row: {
  name: string;
  description: string | null;
  tags: string | null;
  device_type_id: number;
  location_id: string | null;
  device_logging_level_id: number;
  heartbeat_interval: number;
  enabled: boolean;
  tenant_id: string;
  subscription_id: string;
}) => ({
  name: row.name,
  description: row.description,
  tags: row.tags,
  deviceTypeId: row.device_type_id,
  locationId: row.location_id,
  deviceLoggingLevelId: row.device_logging_level_id,
  heartbeatInterval: row.heartbeat_interval,
  enabled: row.enabled,
  tenantId: row.tenant_id,
  subscriptionId: row.subscription_id,
});

/** POST v1/devices/{id}. */
export async function updateDevice(db: Db, user: Principal, deviceId: string, input: DeviceInput): Promise<Device> {
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await lockDevice(tx, deviceId);
    // A device's tenant is fixed: its credential, the token it enrolled with, its packets and its
    // operations' logs are that tenant's, and the packet path keeps who owns each entity.
    if (input.tenantId !== before.tenant_id) throw refused('tenantId', DEVICE_MESSAGES.tenantFixed);
    await assertReferences(tx, input);
    const row = await tx
      .updateTable('device')
      // Left out, the type, logging level and enabled stay as they are (an undefined column is not set).
      .set({
        ...deviceEntity.writeColumns(input),
        modified: new Date(),
        modified_by: user.userName,
      })
      .where('device_id', '=', deviceId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChange(trx, user, row, 'update', changedFields(audited(before), audited(row)));
  });
  return findDevice(db, user.tenantScope, deviceId);
}

/** DELETE v1/devices/{id}: a soft delete, refused while the device has operations (spec 002 §8). */
export async function deleteDevice(db: Db, user: Principal, deviceId: string): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const device = await lockDevice(tx, deviceId);
    const operation = await tx
      .selectFrom('device_operation')
      .select('device_operation_id')
      .where('device_id', '=', deviceId)
      .where('is_deleted', '=', false)
      .limit(1)
      .executeTakeFirst();
    if (operation) throw new BadRequestError(FLEET_MESSAGES.deleteDeviceRefused(device.name));
    // The agent's key and credential go with it: its agent stops at its next call, and enrolling
    // again makes it a pending device that can be promoted anew (the key is unique).
    await tx
      .updateTable('device')
      .set({
        is_deleted: true,
        agent_key_hash: null,
        credential_hash: null,
        modified: new Date(),
        modified_by: user.userName,
      })
      .where('device_id', '=', deviceId)
      .execute();
    await recordChange(trx, user, device, 'delete', { name: device.name });
    return { message: FLEET_MESSAGES.deviceDeleted(device.name) };
  });
}

/**
 * POST v1/devices/{id}/toggleTrace/{minutes}: -1 keeps what is set, 0 switches tracing off, any
 * other option traces until now + minutes by the database's clock (one clock for every instance).
 */
export async function toggleTrace(db: Db, user: Principal, deviceId: string, minutes: number): Promise<Device> {
  if (minutes !== -1) {
    await db.transaction().execute(async (trx) => {
      const tx = scoped(trx, user.tenantScope);
      const before = await lockDevice(tx, deviceId);
      const row = await tx
        .updateTable('device')
        .set({
          trace_minutes: minutes,
          trace_expiration: minutes === 0 ? null : sql<Date>`now() + make_interval(mins => ${minutes}::int)`,
          modified: new Date(),
          modified_by: user.userName,
        })
        .where('device_id', '=', deviceId)
        .returning(['trace_minutes', 'trace_expiration'])
        .executeTakeFirstOrThrow();
      const changes = changedFields(
        { traceMinutes: before.trace_minutes, traceExpiration: before.trace_expiration },
        { traceMinutes: row.trace_minutes, traceExpiration: row.trace_expiration },
      );
      await recordChange(trx, user, before, 'update', changes);
    });
  }
  return findDevice(db, user.tenantScope, deviceId);
}

/**
 * POST v1/devices/{id}/restartagent?__tenant__={tenantId}: raises the flag the agent reads on its
 * next call; the agent API clears it when the agent acknowledges. A tenant named in the address
 * must be the device's.
 */
export async function restartAgent(
  db: Db,
  user: Principal,
  deviceId: string,
  tenantId: string | undefined,
): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const device = await lockDevice(tx, deviceId);
    if (tenantId !== undefined && tenantId !== device.tenant_id) throw new NotFoundError('The device');
    await tx
      .updateTable('device')
      .set({ restart_agent_flag: true, modified: new Date(), modified_by: user.userName })
      .where('device_id', '=', deviceId)
      .execute();
    await recordChange(trx, user, device, 'restart-agent', {
      restartAgentFlag: { from: device.restart_agent_flag, to: true },
    });
    return { message: FLEET_MESSAGES.restartQueued(device.name) };
  });
}
