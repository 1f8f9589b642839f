/**
 * The tenants a caller may touch. Every data function of a tenant-owned table takes one and
 * reaches the table through `scoped(db, scope)` (db/scoped.ts), so there is no way to read another
 * tenant's rows by accident.
 */
export type TenantScope =
  | { readonly kind: 'all' }
  | {
      readonly kind: 'some';
      readonly tenantIds: readonly string[];
      /**
       * The caller's own tenants that are disabled: outside the scope (their data is readable to
       * administrators of every tenant only), named so that a write can say why it is refused.
       */
      readonly disabledTenantIds?: readonly string[];
    };

export const ALL_TENANTS: TenantScope = { kind: 'all' };

export function canAccessTenant(scope: TenantScope, tenantId: string | null | undefined): boolean {
  if (!tenantId) return scope.kind === 'all';
  return scope.kind === 'all' || scope.tenantIds.includes(tenantId.toLowerCase());
}
