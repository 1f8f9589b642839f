import { sql, type Kysely } from 'kysely';
import {
  MAX_CONTROLS,
  type ControlSet,
  type ControlStatus,
  type ControlStatusDocument,
  type ControlStatusValue,
} from '@cfs/contracts/compliance';
import { canAccessTenant, type TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { NotFoundError } from '../../http/errors.js';

/** The columns of a control status as the API names them; the week is read as its calendar date, never as an instant. */
export const STATUS_COLUMNS = [
  'control_status_id',
  'tenant_id',
  'control_id',
  sql<string>`to_char(check_date, 'YYYY-MM-DD')`.as('check_date'),
  'status',
  'notes',
  'created',
  'created_by',
  'modified',
  'modified_by',
] as const;

/** A calendar date as SQL compares it with a date column (a `date`, never an instant in some time zone). */
export const onDate = (date: string) => sql<Date>`${date}::date`;

export interface ControlStatusRow {
  control_status_id: string;
  tenant_id: string;
  control_id: string;
  check_date: string;
  status: string;
  notes: string;
  created: Date;
  created_by: string | null;
  modified: Date;
  modified_by: string | null;
}

/** The fields of a control status that a JSON Patch reads and writes. */
export const controlStatusDocument = (row: ControlStatusRow): ControlStatusDocument => ({
  id: row.control_status_id,
  checkDate: row.check_date,
  status: row.status as ControlStatusValue,
  notes: row.notes,
  tenantId: row.tenant_id,
  controlId: row.control_id,
});

export const presentControlStatus = (row: ControlStatusRow): ControlStatus => ({
  ...controlStatusDocument(row),
  created: row.created,
  createdBy: row.created_by,
  modified: row.modified,
  modifiedBy: row.modified_by,
});

/** Throws 404 "The tenant" unless the tenant exists and is the caller's. */
export async function assertTenant(executor: Kysely<Database>, scope: TenantScope, tenantId: string): Promise<void> {
  if (!canAccessTenant(scope, tenantId) || !(await scoped(executor, scope).hasTenant(tenantId)))
    throw new NotFoundError('The tenant');
}

/**
 * The control sets a tenant may use: the installation's (no tenant) and its own. Without a
 * tenant, every set the caller's scope shows.
 */
export function usableControlSets(executor: Kysely<Database>, scope: TenantScope, tenantId: string | undefined) {
  let query = scoped(executor, scope).selectFrom('control_set');
  if (tenantId !== undefined)
    query = query.where((eb) =>
      eb.or([eb('control_set.tenant_id', 'is', null), eb('control_set.tenant_id', '=', tenantId)]),
    );
  return query;
}

/** A control of a set the tenant may use, or 404. */
export async function findUsableControl(
  executor: Kysely<Database>,
  scope: TenantScope,
  tenantId: string,
  controlId: string,
): Promise<{ control_id: string; name: string; title: string; control_set_id: string }> {
  const row = await usableControlSets(executor, scope, tenantId)
    .innerJoin('control', 'control.control_set_id', 'control_set.control_set_id')
    .select(['control.control_id', 'control.name', 'control.title', 'control.control_set_id'])
    .where('control.control_id', '=', controlId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('The control');
  return row;
}

/**
 * GET v1/controlsets (spec 002 §7): the sets with their controls in catalogue order (at most
 * MAX_CONTROLS in all) and, for a tenant and week, each control's status (none or one: one record
 * per tenant, control and week). Three indexed reads, whatever the number of controls.
 */
export async function findControlSets(
  db: Db,
  scope: TenantScope,
  query: { checkDate?: string | undefined; tenantId?: string | undefined; controlSetId?: string | undefined },
): Promise<{ '@odata.count': number; value: ControlSet[] }> {
  if (query.tenantId !== undefined) await assertTenant(db, scope, query.tenantId);
  let sets = usableControlSets(db, scope, query.tenantId).select([
    'control_set_id',
    'tenant_id',
    'name',
    'description',
    'source',
  ]);
  if (query.controlSetId !== undefined) sets = sets.where('control_set_id', '=', query.controlSetId);
  const setRows = await sets
    .orderBy(sql`tenant_id IS NOT NULL`)
    .orderBy('name')
    .orderBy('control_set_id')
    .execute();
  const setIds = setRows.map((set) => set.control_set_id);
  const controls = setIds.length
    ? await db
        .selectFrom('control')
        .select(['control_id', 'control_set_id', 'name', 'family', 'title', 'description', 'sort_order'])
        .where('control_set_id', 'in', setIds)
        .orderBy(sql`array_position(${sql.val(setIds)}::uuid[], control_set_id)`)
        .orderBy('sort_order')
        .limit(MAX_CONTROLS)
        .execute()
    : [];
  const statuses = new Map<string, ControlStatus[]>();
  if (query.tenantId !== undefined && query.checkDate !== undefined && controls.length > 0) {
    const rows = await scoped(db, scope)
      .selectFrom('control_status')
      .select(STATUS_COLUMNS)
      .where('tenant_id', '=', query.tenantId)
      .where('check_date', '=', onDate(query.checkDate))
      .where(
        'control_id',
        'in',
        controls.map((control) => control.control_id),
      )
      .execute();
    for (const row of rows) statuses.set(row.control_id, [presentControlStatus(row)]);
  }
  const bySet = new Map<string, ControlSet['controls']>();
  for (const control of controls) {
    const list = bySet.get(control.control_set_id) ?? [];
    list.push({
      id: control.control_id,
      name: control.name,
      family: control.family,
      title: control.title,
      description: control.description,
      sortOrder: control.sort_order,
      controlStatuses: statuses.get(control.control_id) ?? [],
    });
    bySet.set(control.control_set_id, list);
  }
  const value = setRows.map((set) => ({
    id: set.control_set_id,
    name: set.name,
    description: set.description,
    source: set.source,
    tenantId: set.tenant_id,
    controls: bySet.get(set.control_set_id) ?? [],
  }));
  return { '@odata.count': value.length, value };
}
