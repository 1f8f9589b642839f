import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/** Typed tables. Column names are snake_case; the API speaks camelCase through presenters. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type ModifiedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface TenantTable extends CustomFieldColumns {
  tenant_id: Generated<string>;
  intake_wizard_schema: string | null;
  name: string;
  internal_notification_email_address: string | null;
  enabled: Generated<boolean>;
  assignment_groups: Generated<string>;
  created: CreatedAt;
  created_by: string | null;
  modified: ModifiedAt;
  modified_by: string | null;
}

type CustomFieldColumns = { [N in 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 as `work_unit_field_${N}`]: string | null };

export interface SubscriptionTable {
  subscription_id: Generated<string>;
  tenant_id: string;
  name: string;
  created: CreatedAt;
  created_by: string | null;
  modified: ModifiedAt;
  modified_by: string | null;
}

export interface AppRoleTable {
  role_id: Generated<number>;
  name: string;
  description: string | null;
}

export interface RolePermissionTable {
  role_id: number;
  /** `{Area}:{verb}` without the configurable prefix, e.g. `Tenants:view`, `WorkUnits:view:mine`. */
  permission: string;
}

export interface AppUserTable {
  user_id: Generated<string>;
  user_name: string;
  display_name: string;
  email: string | null;
  /** scrypt hash for the embedded identity provider; null for users of an external provider. */
  password_hash: string | null;
  /** `{issuer}|{sub}` of an external identity provider. */
  external_subject: string | null;
  all_tenants: Generated<boolean>;
  tenant_id: string | null;
  subscription_id: string | null;
  enabled: Generated<boolean>;
  created: CreatedAt;
  modified: ModifiedAt;
}

export interface UserRoleTable {
  user_id: string;
  role_id: number;
}

export interface UserTenantTable {
  user_id: string;
  tenant_id: string;
}

export interface AuditEventTable {
  audit_event_id: Generated<string>;
  occurred_at: CreatedAt;
  actor_user_id: string | null;
  actor_name: string;
  tenant_id: string | null;
  entity_type: string;
  entity_id: string;
  action: string;
  changes: JSONColumnType<Record<string, unknown>>;
}

export interface OidcPayloadTable {
  id: string;
  type: string;
  payload: JSONColumnType<Record<string, unknown>>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
}

export interface WorkUnitTypeTable {
  work_unit_type_id: number;
  name: string;
  enabled: Generated<boolean>;
}

export interface TenantSecretTable {
  secret_id: Generated<string>;
  tenant_id: string;
  name: string;
  latest_version: Generated<number>;
  created: CreatedAt;
  modified: ModifiedAt;
  modified_by: string | null;
}

export interface TenantSecretVersionTable {
  secret_id: string;
  version: number;
  /** Which key encrypted it, so that a rotated key can still be found. */
  key_id: string;
  /** `iv.tag.ciphertext`, base64url (AES-256-GCM). */
  ciphertext: string;
  created: CreatedAt;
  created_by: string | null;
}

export interface TokenGrantTable {
  token_grant_id: Generated<string>;
  tenant_id: string;
  name: string;
  description: string | null;
  lifetime_years: number;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  token_prefix: string;
  created: CreatedAt;
  created_by: string | null;
  modified: ModifiedAt;
  modified_by: string | null;
  expires_on: Date | null;
  revoked_on: Date | null;
  revoked_by: string | null;
}

export interface WorkUnitCategoryTable {
  work_unit_category_id: Generated<number>;
  tenant_id: string;
  work_unit_type_id: number;
  name: string;
  is_enabled: Generated<boolean>;
  is_visible_in_resolution_center: Generated<boolean>;
  created: CreatedAt;
  created_by: string | null;
  modified: ModifiedAt;
  modified_by: string | null;
}

export interface WorkUnitSubcategoryTable {
  work_unit_subcategory_id: Generated<number>;
  work_unit_category_id: number;
  name: string;
  is_enabled: Generated<boolean>;
  created: CreatedAt;
  created_by: string | null;
  modified: ModifiedAt;
  modified_by: string | null;
}

type CustomValueColumns = { [N in 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 as `custom_value_${N}`]: string | null };

export interface WorkUnitTable extends CustomValueColumns {
  work_unit_id: Generated<number>;
  public_work_unit_id: Generated<string>;
  internal_work_unit_id: string | null;
  tenant_id: string;
  work_unit_type_id: number;
  work_unit_category_id: number | null;
  work_unit_subcategory_id: number | null;
  protocol_id: number | null;
  title: string;
  description: string | null;
  resolution: string | null;
  severity_id: number;
  effort: number | null;
  state_id: number;
  assigned_to: string | null;
  assignment_group: string | null;
  source: string | null;
  reference_id: string | null;
  reference_url: string | null;
  stakeholder_full_name: string | null;
  stakeholder_phone_number: string | null;
  stakeholder_email_address: string | null;
  stakeholder_experience_score: string | null;
  properties: string | null;
  planned_start_time: Date | null;
  planned_finish_time: Date | null;
  requested_change_window: string | null;
  planned_outage: boolean | null;
  implementer: string | null;
  approver1: string | null;
  approver2: string | null;
  is_approver_required: boolean | null;
  approved1_by: string | null;
  approved2_by: string | null;
  declined1_by: string | null;
  declined2_by: string | null;
  decision1_notes: string | null;
  decision2_notes: string | null;
  implementation_plan: string | null;
  rollback_plan: string | null;
  affected_resources: string | null;
  security_considerations: string | null;
  user_impact: string | null;
  cost_impact: string | null;
  environment: string | null;
  expected_cfs_alerts: string | null;
  created: CreatedAt;
  created_by: string | null;
  modified: ModifiedAt;
  modified_by: string | null;
  resolved: Date | null;
}

export interface WorkUnitRelationTable {
  work_unit_id: number;
  reference_type: string;
  reference_id: string;
}

export interface WorkUnitNoteTable {
  work_unit_note_id: Generated<number>;
  work_unit_id: number;
  tenant_id: string;
  detail: string;
  /** null for a person's note; a HISTORY_TYPES value for a system record. */
  history_type: number | null;
  is_external_note: Generated<boolean>;
  history_url: string | null;
  created: CreatedAt;
  created_by: string | null;
}

export interface WorkUnitEventTable {
  work_unit_event_id: Generated<number>;
  work_unit_id: number;
  tenant_id: string;
  event_type_id: number;
  from_state_id: number | null;
  to_state_id: number | null;
  created: CreatedAt;
  created_by: string | null;
  processed_at: Date | null;
}

export interface DirectoryGroupTable {
  group_id: Generated<string>;
  display_name: string;
  mail: string;
  tenant_id: string | null;
}

export interface Database {
  tenant: TenantTable;
  subscription: SubscriptionTable;
  app_role: AppRoleTable;
  role_permission: RolePermissionTable;
  app_user: AppUserTable;
  user_role: UserRoleTable;
  user_tenant: UserTenantTable;
  audit_event: AuditEventTable;
  oidc_payload: OidcPayloadTable;
  work_unit_type: WorkUnitTypeTable;
  tenant_secret: TenantSecretTable;
  tenant_secret_version: TenantSecretVersionTable;
  token_grant: TokenGrantTable;
  work_unit_category: WorkUnitCategoryTable;
  work_unit_subcategory: WorkUnitSubcategoryTable;
  work_unit: WorkUnitTable;
  work_unit_relation: WorkUnitRelationTable;
  work_unit_note: WorkUnitNoteTable;
  work_unit_event: WorkUnitEventTable;
  directory_group: DirectoryGroupTable;
}
