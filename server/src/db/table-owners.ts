import type { DB as Database } from './schema.js';

/**
 * The one folder that writes each table (server/src/<owner>): an area, an engine, or shared
 * machinery (auth, audit, files). Another folder that needs a row written calls the owner's
 * function, or its port when it may not import the owner (engines/work-units/system-writer.ts), so
 * a table's rules (history, events, audit, payload checks) live in one place. A test
 * (server/test/table-owners.test.ts) fails on an insert, update, delete or merge of a table
 * written outside its owner, raw `sql` included. A new table is added here with its migration.
 *
 * Not checked: migrations, and the installation's own set-up (db/seed.ts with the demo work
 * units), which writes the first tenants, users and categories before any area's function can run.
 */
export const TABLE_OWNERS = {
  action_definition: 'areas/actiondefinitions',
  action_history: 'engines/actions',
  app_role: 'auth',
  app_user: 'auth',
  audit_event: 'audit',
  block: 'areas/blocks',
  control: 'areas/compliance',
  control_poam: 'areas/compliance',
  control_set: 'areas/compliance',
  control_status: 'areas/compliance',
  device: 'areas/devices',
  device_installation: 'areas/devices',
  device_log: 'areas/agent',
  device_operation: 'areas/deviceoperations',
  directory_group: 'auth',
  email_outbox: 'engines/email',
  engine_cursor: 'engines/events',
  entity_color: 'engines/rules',
  entity_log: 'engines/rules',
  entity_owner: 'engines/ingestion',
  job: 'engines/jobs',
  location: 'areas/locations',
  oidc_payload: 'auth',
  operation: 'areas/packages',
  operation_log: 'areas/agent',
  package: 'areas/packages',
  package_latest_version: 'areas/packages',
  package_version: 'areas/packages',
  packet: 'engines/ingestion',
  packet_latest: 'engines/ingestion',
  pending_device: 'areas/pendingdevices',
  protocol: 'areas/protocols',
  protocol_action: 'areas/protocolactions',
  role_permission: 'auth',
  rule: 'areas/rules',
  rule_correlation_member: 'engines/rules',
  rule_match: 'engines/rules',
  saved_view: 'areas/savedviews',
  stored_file: 'files',
  stored_file_chunk: 'files',
  subscription: 'areas/subscriptions',
  tenant: 'areas/tenants',
  tenant_secret: 'areas/tenants',
  tenant_secret_version: 'areas/tenants',
  token_grant: 'areas/tokens',
  user_role: 'auth',
  user_tenant: 'areas/tenants',
  version_policy_work_unit: 'areas/workunits',
  work_unit: 'areas/workunits',
  work_unit_category: 'areas/workunitcategories',
  work_unit_communication: 'areas/workunitcommunications',
  work_unit_communication_activity: 'areas/workunitcommunications',
  work_unit_communication_work_unit: 'areas/workunitcommunications',
  work_unit_event: 'areas/workunits',
  work_unit_note: 'areas/workunits',
  work_unit_relation: 'areas/workunits',
  work_unit_subcategory: 'areas/workunitcategories',
  work_unit_type: 'areas/workunitcategories',
  worker_heartbeat: 'engines/jobs',
} as const satisfies Record<keyof Database, string>;
