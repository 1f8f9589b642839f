import {
  sql,
  type DeleteQueryBuilder,
  type DeleteResult,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import { canAccessTenant, type TenantScope } from '../auth/tenant-scope.js';
import type { DB as Database } from './schema.js';
import { TENANT_TABLES, type TenantTable } from './tenant-tables.js';

/**
 * A row to be written names a tenant outside the scope. The HTTP layer answers it as it answers any
 * tenant the caller cannot see: 404 "The tenant was not found." (http/error-handler.ts).
 */
export class TenantOutOfScopeError extends Error {
  constructor() {
    super('The tenant was not found.');
  }
}

/** A tenant-owned table, optionally aliased: `'work_unit'` or `'work_unit as wu'`. */
export type ScopedFrom = TenantTable | `${TenantTable} as ${string}`;

function split(from: ScopedFrom): { table: TenantTable; alias: string } {
  const [table, alias] = from.split(/\s+as\s+/i) as [TenantTable, string | undefined];
  return { table, alias: alias ?? table };
}

/**
 * The condition that limits a tenant-owned table, read as `alias`, to the scope. The one place
 * that turns a scope into SQL; the list layer uses it for its joins and expansions.
 */
export function tenantCondition(table: TenantTable, alias: string, scope: TenantScope): RawBuilder<SqlBool> {
  const { column, ...rest } = TENANT_TABLES[table];
  const shared = 'sharedWhenNull' in rest && rest.sharedWhenNull;
  if (scope.kind === 'all') return sql<SqlBool>`true`;
  // The caller's own disabled tenant stays visible as a tenant (its administrator can enable it
  // again), while everything it owns is out of reach until then.
  const tenantIds =
    table === 'tenant' && scope.disabledTenantIds?.length
      ? [...scope.tenantIds, ...scope.disabledTenantIds]
      : scope.tenantIds;
  const ref = sql.ref(`${alias}.${column}`);
  // One tenant (most staff) as `= $1`: PostgreSQL then reads a (tenant_id, sort key) index in
  // order and stops at the page, where `= ANY(array)` makes it fetch and sort every match.
  const inScope =
    tenantIds.length === 0
      ? sql<SqlBool>`false`
      : tenantIds.length === 1
        ? sql<SqlBool>`${ref} = ${tenantIds[0]}::uuid`
        : sql<SqlBool>`${ref} = ANY(${sql.val(tenantIds)}::uuid[])`;
  return shared ? sql<SqlBool>`(${ref} IS NULL OR ${inScope})` : inScope;
}

/**
 * The one entry point to tenant-owned tables: every query it starts is limited to the caller's
 * tenants, and every row it inserts must name one of them. `executor` is the root handle for
 * reads or the open transaction for writes.
 *
 * @example
 *   const row = await scoped(trx, user.tenantScope).selectFrom('subscription').selectAll()
 *     .where('subscription_id', '=', id).forUpdate().executeTakeFirst();
 *   await scoped(trx, user.tenantScope).insertInto('token_grant', { tenant_id, ... }).execute();
 */
export function scoped<E extends Kysely<Database>>(executor: E, scope: TenantScope): ScopedDb<E> {
  return new ScopedDb(executor, scope);
}

/** `ScopedDb<Tx>`: scoped access inside an open transaction, what write functions take. */
export class ScopedDb<E extends Kysely<Database> = Kysely<Database>> {
  private readonly db: Kysely<Database>;

  constructor(
    /** The root handle or the open transaction, for tables that carry no tenant. */
    readonly executor: E,
    readonly scope: TenantScope,
  ) {
    this.db = executor;
  }

  selectFrom<T extends TenantTable>(from: T): SelectQueryBuilder<Database, T, object>;
  selectFrom<T extends TenantTable, A extends string>(
    from: `${T} as ${A}`,
  ): SelectQueryBuilder<Database & Record<A, Database[T]>, A, object>;
  // The overloads give the caller Kysely's own types; Kysely cannot type a generic table name here.
  selectFrom(from: string): unknown {
    const { table, alias } = split(from as ScopedFrom);
    return this.db.selectFrom(from as TenantTable).where(tenantCondition(table, alias, this.scope));
  }

  updateTable<T extends TenantTable>(table: T): UpdateQueryBuilder<Database, T, T, UpdateResult> {
    const query: unknown = this.db.updateTable(table as TenantTable).where(tenantCondition(table, table, this.scope));
    return query as UpdateQueryBuilder<Database, T, T, UpdateResult>;
  }

  deleteFrom<T extends TenantTable>(table: T): DeleteQueryBuilder<Database, T, DeleteResult> {
    const query: unknown = this.db.deleteFrom(table as TenantTable).where(tenantCondition(table, table, this.scope));
    return query as DeleteQueryBuilder<Database, T, DeleteResult>;
  }

  /** Refuses (404 "The tenant") a row whose tenant is outside the scope before anything is written. */
  insertInto<T extends TenantTable>(
    table: T,
    values: Insertable<Database[T]> | readonly Insertable<Database[T]>[],
  ): InsertQueryBuilder<Database, T, InsertResult> {
    const column = TENANT_TABLES[table].column;
    for (const row of Array.isArray(values) ? values : [values]) {
      const tenantId: unknown = (row as Record<string, unknown>)[column];
      const allowed =
        table === 'tenant'
          ? this.scope.kind === 'all' || tenantId === undefined
          : canAccessTenant(this.scope, typeof tenantId === 'string' ? tenantId : null);
      if (!allowed) throw new TenantOutOfScopeError();
    }
    return this.db.insertInto(table).values(values as Insertable<Database[T]>[]);
  }

  /** Whether the tenant exists and is in the scope: the check before writing a row that names it. */
  async hasTenant(tenantId: string): Promise<boolean> {
    return (await this.tenantState(tenantId)) !== 'missing';
  }

  /** The tenant as a writer sees it: missing (or outside the scope), disabled (takes no new work), or enabled. */
  async tenantState(tenantId: string): Promise<'missing' | 'disabled' | 'enabled'> {
    if (this.scope.kind === 'some' && this.scope.disabledTenantIds?.includes(tenantId.toLowerCase())) return 'disabled';
    if (!canAccessTenant(this.scope, tenantId)) return 'missing';
    const row = await this.selectFrom('tenant').select('enabled').where('tenant_id', '=', tenantId).executeTakeFirst();
    if (!row) return 'missing';
    return row.enabled ? 'enabled' : 'disabled';
  }
}
