import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The work units list's service level filters (docs/features/service-levels.md "In the list"):
 * a unit's clock due in a range ("breaching within 1 h") and its breached clocks, each read as
 * the keys of the clocks that meet it. A clock has a due time only while it runs, so the range
 * needs no `running`; the index by tenant and due time it replaces served neither. The monthly
 * report reads a tenant's clocks by when they were decided: breached, or else stopped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `DROP INDEX service_level_timer_due_idx`,
    `CREATE INDEX service_level_timer_due_idx ON service_level_timer (kind, due) WHERE due IS NOT NULL`,
    `CREATE INDEX service_level_timer_breached_idx ON service_level_timer (kind, breached) WHERE breached IS NOT NULL`,
    `CREATE INDEX service_level_timer_decided_idx ON service_level_timer (tenant_id, (coalesce(breached, stopped)))
       WHERE coalesce(breached, stopped) IS NOT NULL`,
  ]);
}
