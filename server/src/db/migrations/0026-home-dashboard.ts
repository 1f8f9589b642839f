import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The Home dashboard's figures, each read from an index of one tenant's rows rather than the table:
 * - open work units by severity and state: only the open ones (a small share of all work, which
 *   grows with every resolved unit), read index-only;
 * - open communications and the overdue among them.
 * A device's last contact is deliberately left out of every index: each heartbeat rewrites it, and
 * an index on it would turn those updates from in-page (HOT) updates into index writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE INDEX work_unit_open_idx ON work_unit (tenant_id, severity_id, state_id) WHERE state_id NOT IN (6, 7, 8)`,
    `CREATE INDEX work_unit_communication_open_idx ON work_unit_communication (tenant_id, next_update) WHERE status NOT IN ('Resolved', 'Cancelled')`,
  ]);
}
