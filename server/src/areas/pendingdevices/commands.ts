import {
  operatingSystemIdOf,
  PENDING_DEVICE_MESSAGES,
  type PendingDeviceBatch,
  type PendingDeviceBatchResult,
} from '@cfs/contracts/pending-devices';
import { recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import { fleetWriters } from '../../engines/fleet/owner-ports.js';
import { recordCreatedEntities } from '../../engines/ingestion/entity-owners.js';
import { BadRequestError, NotFoundError } from '../../http/errors.js';

/** The selected pending devices, locked; 404 when any is gone or another tenant's. */
async function lockPendingDevices(tx: ScopedDb<Tx>, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const rows = await tx
    .selectFrom('pending_device')
    .selectAll()
    .where('pending_device_id', 'in', unique)
    .orderBy('machine_name')
    .forUpdate()
    .execute();
  if (rows.length !== unique.length) throw new NotFoundError('A pending device');
  return rows;
}

type PendingDeviceRow = Awaited<ReturnType<typeof lockPendingDevices>>[number];

/** Deletes the (locked) pending devices. */
async function removePendingDevices(tx: ScopedDb<Tx>, pending: readonly PendingDeviceRow[]): Promise<void> {
  await tx
    .deleteFrom('pending_device')
    .where(
      'pending_device_id',
      'in',
      pending.map((row) => row.pending_device_id),
    )
    .execute();
}

/** Records `action` on each pending device in the change history: its machine name, and what `more` adds. */
async function recordEach(
  trx: Tx,
  user: Principal,
  pending: readonly PendingDeviceRow[],
  action: 'promote' | 'delete',
  more: (row: PendingDeviceRow) => Record<string, unknown> = () => ({}),
): Promise<void> {
  for (const row of pending) {
    await recordAudit(trx, user, {
      entityType: 'pendingDevice',
      entityId: row.pending_device_id,
      tenantId: row.tenant_id,
      action,
      changes: { machineName: row.machine_name, ...more(row) },
    });
  }
}

/**
 * POST v1/pendingdevices/batchpromote (spec 002 §4): each pending device becomes a device of the
 * chosen subscription (the body's, else the caller's current one), keeping the agent's key hash
 * and enrolment token, so the agent's next enrolment call receives the device's credential.
 * One transaction: all are promoted or none.
 */
export async function promotePendingDevices(
  db: Db,
  user: Principal,
  batch: PendingDeviceBatch,
): Promise<PendingDeviceBatchResult> {
  const subscriptionId = batch.subscriptionId ?? user.subscriptionId;
  const refuse = () =>
    new BadRequestError(PENDING_DEVICE_MESSAGES.subscriptionRequired, {
      subscriptionId: [PENDING_DEVICE_MESSAGES.subscriptionRequired],
    });
  if (!subscriptionId) throw refuse();
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const pending = await lockPendingDevices(tx, batch.pendingDeviceIds);
    const subscription = await tx
      .selectFrom('subscription')
      .select(['subscription_id', 'tenant_id'])
      .where('subscription_id', '=', subscriptionId)
      .forShare()
      .executeTakeFirst();
    if (!subscription || pending.some((row) => row.tenant_id !== subscription.tenant_id)) throw refuse();
    await removePendingDevices(tx, pending);
    const devices = await fleetWriters().devices.create(
      trx,
      user.tenantScope,
      pending.map((row) => ({
        tenant_id: row.tenant_id,
        subscription_id: subscription.subscription_id,
        name: row.machine_name,
        operating_system_id: operatingSystemIdOf(row.operating_system),
        machine_name: row.machine_name,
        architecture: row.architecture,
        ip_address: row.ip_address,
        agent_key_hash: row.agent_key_hash,
        token_grant_id: row.token_grant_id,
        created_by: user.userName,
        modified_by: user.userName,
      })),
    );
    // The devices are the tenant's entities from now on: another tenant's packets for them are refused.
    await recordCreatedEntities(
      trx,
      subscription.tenant_id,
      devices.map((device) => device.device_id),
    );
    const deviceOf = new Map(devices.map((device) => [device.agent_key_hash, device.device_id]));
    await recordEach(trx, user, pending, 'promote', (row) => ({
      deviceId: deviceOf.get(row.agent_key_hash),
      subscriptionId: subscription.subscription_id,
    }));
    const byId = new Map(pending.map((row) => [row.pending_device_id, deviceOf.get(row.agent_key_hash) ?? '']));
    return { count: pending.length, deviceIds: [...new Set(batch.pendingDeviceIds)].map((id) => byId.get(id) ?? '') };
  });
}

/** DELETE v1/pendingdevices/batchdelete: an agent that enrols again shows up again. */
export async function deletePendingDevices(
  db: Db,
  user: Principal,
  batch: PendingDeviceBatch,
): Promise<PendingDeviceBatchResult> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const pending = await lockPendingDevices(tx, batch.pendingDeviceIds);
    await removePendingDevices(tx, pending);
    await recordEach(trx, user, pending, 'delete');
    return { count: pending.length, deviceIds: [] };
  });
}
