import type { Area } from '@cfs/contracts/permissions';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { HttpError } from '../../http/errors.js';

/**
 * One entity's change history. `audited` maps entity types to the area whose view permission
 * reads them (each area declares its own in its manifest); a type missing there has no readable history.
 */
export async function findAuditEvents(
  db: Db,
  audited: Readonly<Record<string, Area>>,
  user: Principal,
  entityType: string,
  entityId: string,
  top: number,
) {
  const area = audited[entityType];
  if (!area) throw new HttpError(400, `Unknown entity type '${entityType}'.`);
  if (!user.permissions.has(area, 'view'))
    throw new HttpError(403, 'You do not have access to one or more requested resources');
  // Events of tenantless entities are readable by those who may read the entity type (sharedWhenNull).
  const rows = await scoped(db, user.tenantScope)
    .selectFrom('audit_event')
    .select(['audit_event_id', 'occurred_at', 'actor_name', 'entity_type', 'entity_id', 'action', 'changes'])
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', entityId)
    .orderBy('occurred_at', 'desc')
    .orderBy('audit_event_id', 'desc')
    .limit(top)
    .execute();
  return rows.map((row) => ({
    auditEventId: Number(row.audit_event_id),
    occurredAt: row.occurred_at,
    actorName: row.actor_name,
    entityType: row.entity_type,
    entityId: row.entity_id,
    action: row.action,
    changes: row.changes,
  }));
}
