import type { DB as Database } from './schema.js';
import { TENANT_TABLES as DECLARED_TENANT_TABLES } from './tables.js';

/**
 * Every table that carries a tenant, with its tenant column. Reads and writes of these tables go
 * through `scoped()` (db/scoped.ts), and so do the list layer's joins and expansions; a test fails
 * on any query of them written elsewhere. A tenant-owned table names its tenant column in the
 * migration that creates it (`declareTable`), and `npm run db:types` writes it to tables.ts.
 *
 * `sharedWhenNull`: a row without a tenant belongs to the installation and is visible to every
 * caller (audit events of installation-wide settings, directory groups of the whole directory).
 *
 * Not listed, on purpose: child tables reached only through a listed parent (work_unit_relation,
 * work_unit_subcategory, tenant_secret_version, a package's package_version and operation, a control
 * set's control), and the sign-in tables (NOT_TENANT_OWNED).
 */
export const TENANT_TABLES = DECLARED_TENANT_TABLES satisfies Partial<
  Record<keyof Database, { column: string; sharedWhenNull?: boolean }>
>;

export type TenantTable = keyof typeof TENANT_TABLES;

/** Tables with a tenant column that say who a caller is (a user's default and allowed tenants), read before any scope exists. */
export const NOT_TENANT_OWNED = ['app_user', 'user_tenant'] as const satisfies readonly (keyof Database)[];

export function isTenantTable(table: string): table is TenantTable {
  return Object.hasOwn(TENANT_TABLES, table);
}
