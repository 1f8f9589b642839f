import type { WorkUnitRelation } from '@cfs/contracts/work-units';
import { sql, type CompiledQuery } from 'kysely';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { NotFoundError } from '../../http/errors.js';
import { findListItem, listItemStatement, type ListItemJson } from '../../odata/list-item.js';
import type { ListSqlRow } from '../../odata/list-query-sql.js';
import type { WorkUnitRow } from './document.js';
import { WORK_UNIT_ITEM_EXPAND, workUnitItemResource } from './resource.js';

async function relationsOf(db: Db, workUnitId: number): Promise<WorkUnitRelation[]> {
  const rows = await db
    .selectFrom('work_unit_relation')
    .select(['reference_type', 'reference_id'])
    .where('work_unit_id', '=', workUnitId)
    .orderBy('reference_type')
    .orderBy('reference_id')
    .execute();
  return rows.map((row) => ({ referenceType: row.reference_type, referenceId: row.reference_id }));
}

/** Which work units a caller may touch: their tenants', or for an end user only their own (view:mine). */
export type WorkUnitAccess = { scope: TenantScope; mine?: { userName: string; email: string | null } };

function scopedUnit(db: Db, access: WorkUnitAccess, workUnitId: number) {
  let query = scoped(db, access.scope).selectFrom('work_unit').selectAll().where('work_unit_id', '=', workUnitId);
  const mine = access.mine;
  if (mine) {
    query = query.where((eb) =>
      eb.or([
        eb('created_by', '=', mine.userName),
        ...(mine.email ? [eb(sql<string>`lower(stakeholder_email_address)`, '=', mine.email.toLowerCase())] : []),
      ]),
    );
  }
  return query;
}

/** A work unit the caller may touch, row locked for the open transaction; else 404. */
export async function lockWorkUnit(
  db: Tx,
  access: WorkUnitAccess,
  workUnitId: number,
): Promise<{ row: WorkUnitRow; relations: WorkUnitRelation[] }> {
  const row = await scopedUnit(db, access, workUnitId).forUpdate().executeTakeFirst();
  if (!row) throw new NotFoundError('The work unit');
  return { row, relations: await relationsOf(db, workUnitId) };
}

/** 404 unless the caller may touch the work unit; reads take no lock. */
export async function assertWorkUnitAccess(db: Db, access: WorkUnitAccess, workUnitId: number): Promise<void> {
  if (!(await scopedUnit(db, access, workUnitId).executeTakeFirst())) throw new NotFoundError('The work unit');
}

/** A work unit by number or public GUID, with every expansion of the item, as the list reads it. */
const workUnitItem = (db: Db, scope: TenantScope, id: number | string) =>
  [
    workUnitItemResource,
    () => scoped(db, scope).selectFrom('work_unit').selectAll(),
    scope,
    { field: typeof id === 'number' ? 'workUnitId' : 'publicWorkUnitId', id, expand: WORK_UNIT_ITEM_EXPAND },
  ] as const;

/** GET v1/workunits/{id}: the statement that reads the work unit as JSON text (listItemStatement). */
export function workUnitItemStatement(db: Db, scope: TenantScope, id: number | string): CompiledQuery<ListSqlRow> {
  return listItemStatement(db, ...workUnitItem(db, scope, id));
}

/** The work unit as JSON text (`WorkUnit`, every expansion of the item), sent as it is (`sendListItem`); else 404. */
export function findWorkUnitJson(db: Db, scope: TenantScope, id: number | string): Promise<ListItemJson> {
  return findListItem(db, ...workUnitItem(db, scope, id), 'The work unit');
}
