import type { ExpressionBuilder, Expression, Kysely, SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';
import { sql } from 'kysely';

/**
 * The tenants a caller may touch. Every data function of a tenant-owned table takes one and
 * applies it with `tenantFilter`, so there is no way to read another tenant's rows by accident.
 */
export type TenantScope = { readonly kind: 'all' } | { readonly kind: 'some'; readonly tenantIds: readonly string[] };

export const ALL_TENANTS: TenantScope = { kind: 'all' };

export function canAccessTenant(scope: TenantScope, tenantId: string | null | undefined): boolean {
  if (!tenantId) return scope.kind === 'all';
  return scope.kind === 'all' || scope.tenantIds.includes(tenantId.toLowerCase());
}

/**
 * A WHERE condition limiting `column` to the scope.
 *
 * @example
 *   db.selectFrom('subscription').where((eb) => tenantFilter(eb, 'subscription.tenant_id', scope))
 */
export function tenantFilter<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  column: string,
  scope: TenantScope,
): Expression<SqlBool> {
  if (scope.kind === 'all') return sql<SqlBool>`true`;
  if (scope.tenantIds.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`${sql.ref(column)} = ANY(${sql.val(scope.tenantIds)}::uuid[])`;
}

/**
 * Whether a tenant exists and the caller may touch it: the one check before writing a row that
 * names a tenant. `executor` is the database or the open transaction.
 *
 * @example
 *   if (!(await tenantInScope(trx, user.tenantScope, input.tenantId))) throw new NotFoundError('The tenant');
 */
export async function tenantInScope(executor: Kysely<Database>, scope: TenantScope, tenantId: string): Promise<boolean> {
  if (!canAccessTenant(scope, tenantId)) return false;
  const row = await executor.selectFrom('tenant').select('tenant_id').where('tenant_id', '=', tenantId).executeTakeFirst();
  return row !== undefined;
}
