import type { Principal } from '../auth/principal.js';
import type { Tx } from '../db/database.js';
import { scoped } from '../db/scoped.js';
import { ALL_TENANTS } from '../auth/tenant-scope.js';

export type AuditAction = 'create' | 'update' | 'delete' | 'read-secret' | string;

export interface AuditEntry {
  entityType: string;
  entityId: string;
  tenantId: string | null;
  action: AuditAction;
  /** `{ field: { from, to } }` for updates, the created values for creates. */
  changes?: Record<string, unknown>;
}

/** An actor without a user id is a machine (a device agent), recorded by its name. */
export type AuditActor = Pick<Principal, 'userName'> & { userId: string | null };

/**
 * The one way a write is recorded (DESIGN: every change is recorded, who, when, what), inside
 * the same transaction as the write, so a change and its record land together. The record is the
 * installation's own: it is written for the tenant the write touched, which the caller's scope
 * has already allowed.
 */
export async function recordAudit(trx: Tx, actor: AuditActor | 'system', entry: AuditEntry): Promise<void> {
  await scoped(trx, ALL_TENANTS)
    .insertInto('audit_event', {
      actor_user_id: actor === 'system' ? null : actor.userId,
      actor_name: actor === 'system' ? 'system' : actor.userName,
      tenant_id: entry.tenantId,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      action: entry.action,
      changes: JSON.stringify(entry.changes ?? {}),
    })
    .execute();
}

/**
 * The recorder of one kind of entity: `recordChange(trx, actor, row, action, changes)` records
 * `action` on the row (its id read by `idOf`, its tenant from `tenant_id`) in the write's
 * transaction.
 */
export function entityAudit<Row extends { tenant_id: string | null }>(entityType: string, idOf: (row: Row) => string) {
  return (
    trx: Tx,
    actor: AuditActor | 'system',
    row: Row,
    action: AuditAction,
    changes: Record<string, unknown>,
  ): Promise<void> =>
    recordAudit(trx, actor, { entityType, entityId: idOf(row), tenantId: row.tenant_id, action, changes });
}

/** The fields whose values differ, as `{ field: { from, to } }` (secrets never pass through here). */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined) continue;
    const from = before[field];
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    changes[field] = { from, to };
  }
  return changes;
}
