import type { ExpressionBuilder, Expression, SqlBool } from 'kysely';
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
