import type { DB as Database } from './schema.js';

/**
 * Every table that carries a tenant, with its tenant column. Reads and writes of these tables go
 * through `scoped()` (db/scoped.ts), and so do the list layer's joins and expansions; a test fails
 * on any query of them written elsewhere. A new tenant-owned table is added here with its migration.
 *
 * `sharedWhenNull`: a row without a tenant belongs to the installation and is visible to every
 * caller (audit events of installation-wide settings, directory groups of the whole directory).
 *
 * Not listed, on purpose: child tables reached only through a listed parent (work_unit_relation,
 * work_unit_subcategory, tenant_secret_version, a package's package_version and operation, a control set's control), and the sign-in tables (NOT_TENANT_OWNED).
 */
export const TENANT_TABLES = {
  tenant: { column: 'tenant_id' },
  subscription: { column: 'tenant_id' },
  tenant_secret: { column: 'tenant_id' },
  token_grant: { column: 'tenant_id' },
  work_unit_category: { column: 'tenant_id' },
  work_unit: { column: 'tenant_id' },
  work_unit_note: { column: 'tenant_id' },
  work_unit_event: { column: 'tenant_id' },
  audit_event: { column: 'tenant_id', sharedWhenNull: true },
  directory_group: { column: 'tenant_id', sharedWhenNull: true },
  saved_view: { column: 'tenant_id' },
  location: { column: 'tenant_id', sharedWhenNull: true },
  package: { column: 'tenant_id', sharedWhenNull: true },
  device: { column: 'tenant_id' },
  device_operation: { column: 'tenant_id' },
  device_installation: { column: 'tenant_id' },
  device_log: { column: 'tenant_id' },
  operation_log: { column: 'tenant_id' },
  pending_device: { column: 'tenant_id' },
  packet: { column: 'tenant_id' },
  packet_latest: { column: 'tenant_id' },
  entity_owner: { column: 'tenant_id' },
  action_definition: { column: 'tenant_id', sharedWhenNull: true },
  action_history: { column: 'tenant_id' },
  rule: { column: 'tenant_id', sharedWhenNull: true },
  rule_match: { column: 'tenant_id' },
  rule_correlation_member: { column: 'tenant_id' },
  entity_color: { column: 'tenant_id' },
  entity_log: { column: 'tenant_id' },
  block: { column: 'tenant_id' },
  protocol: { column: 'tenant_id', sharedWhenNull: true },
  protocol_action: { column: 'tenant_id', sharedWhenNull: true },
  email_outbox: { column: 'tenant_id' },
  work_unit_communication: { column: 'tenant_id' },
  work_unit_communication_work_unit: { column: 'tenant_id' },
  work_unit_communication_activity: { column: 'tenant_id' },
  control_set: { column: 'tenant_id', sharedWhenNull: true },
  control_status: { column: 'tenant_id' },
  control_poam: { column: 'tenant_id' },
  version_policy_work_unit: { column: 'tenant_id' },
} as const satisfies Partial<Record<keyof Database, { column: string; sharedWhenNull?: boolean }>>;

export type TenantTable = keyof typeof TENANT_TABLES;

/** Tables with a tenant column that say who a caller is (a user's default and allowed tenants), read before any scope exists. */
export const NOT_TENANT_OWNED = ['app_user', 'user_tenant'] as const satisfies readonly (keyof Database)[];

export function isTenantTable(table: string): table is TenantTable {
  return Object.hasOwn(TENANT_TABLES, table);
}
