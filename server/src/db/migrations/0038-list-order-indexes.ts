import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * An index for each list's default order as an administrator reads it (every tenant, no tenant
 * condition) and as one tenant's staff read it, each ending with the list's key in the order's
 * direction (the list layer breaks ties by the key, in the direction of the last order key): a
 * page is then read in index order and stops at its rows, never a sort of the whole table or of
 * a tenant's rows. The one-tenant indexes they replace ended with the key ascending under a
 * descending order, which left an incremental sort over each run of equal times.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    // Every tenant.
    `CREATE INDEX rule_match_all_created_idx ON rule_match (created DESC, rule_match_id DESC)`,
    `CREATE INDEX action_history_all_processed_idx ON action_history (action_processed DESC, action_history_id DESC)`,
    `CREATE INDEX subscription_name_idx ON subscription (name, subscription_id)`,
    `CREATE INDEX token_grant_created_idx ON token_grant (created DESC, token_grant_id DESC)`,
    `CREATE INDEX device_operation_label_idx ON device_operation (label, device_operation_id)`,
    `CREATE INDEX pending_device_name_idx ON pending_device (machine_name, pending_device_id)`,
    `CREATE INDEX protocol_action_order_idx ON protocol_action (work_unit_event_type_id, sequence, protocol_action_id)`,
    `CREATE INDEX work_unit_communication_activity_created_idx ON work_unit_communication_activity (created, work_unit_communication_activity_id)`,
    // One tenant.
    `DROP INDEX rule_match_created_idx`,
    `CREATE INDEX rule_match_created_idx ON rule_match (tenant_id, created DESC, rule_match_id DESC)`,
    `DROP INDEX action_history_tenant_idx`,
    `CREATE INDEX action_history_tenant_idx ON action_history (tenant_id, action_processed DESC, action_history_id DESC)`,
    `DROP INDEX subscription_tenant_idx`,
    `CREATE INDEX subscription_tenant_idx ON subscription (tenant_id, name, subscription_id)`,
    `DROP INDEX token_grant_tenant_created_idx`,
    `CREATE INDEX token_grant_tenant_created_idx ON token_grant (tenant_id, created DESC, token_grant_id DESC)`,
    `CREATE INDEX device_operation_tenant_label_idx ON device_operation (tenant_id, label, device_operation_id)`,
    `CREATE INDEX work_unit_communication_activity_tenant_idx ON work_unit_communication_activity (tenant_id, created, work_unit_communication_activity_id)`,
  ]);
}
