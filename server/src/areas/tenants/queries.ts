import type { Selectable } from 'kysely';
import type { TenantScope } from '../../auth/tenant-scope.js';
import { scoped } from '../../db/scoped.js';
import type { Db } from '../../db/database.js';
import type { DB as Database } from '../../db/schema.js';
import { NotFoundError } from '../../http/errors.js';

export type TenantRow = Selectable<Database['tenant']>;

/**
 * A tenant the caller may touch, or 404 (another tenant's object answers as if it did not exist);
 * `lock` holds the row for the open transaction.
 */
export async function findTenantRow(
  db: Db,
  scope: TenantScope,
  tenantId: string,
  options: { lock?: boolean } = {},
): Promise<TenantRow> {
  let query = scoped(db, scope).selectFrom('tenant').selectAll().where('tenant_id', '=', tenantId);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new NotFoundError('The tenant');
  return row;
}

export async function findAssignmentGroups(db: Db, scope: TenantScope, tenantId: string): Promise<string[]> {
  const row = await findTenantRow(db, scope, tenantId);
  return row.assignment_groups
    .split(',')
    .map((group) => group.trim())
    .filter(Boolean);
}
