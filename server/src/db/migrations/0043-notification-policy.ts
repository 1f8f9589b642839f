import type { Kysely } from 'kysely';
import { declareTable, runStatements } from '../migrate.js';

/**
 * A tenant's notification policy (docs/features/rules.md "Repeat notifications"): how often the
 * notifying match actions (Send Email, HTTP calls) of an open match run again while nobody has
 * acknowledged it, it is not silenced or in maintenance, and it has not closed.
 * - `notification_policy`: one row per tenant that has one (none: no repeat);
 * - `rule_match.notified`: when its notifying actions last ran (none: when it opened), and
 *   `rule_match.repeats`: how many times they ran again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE notification_policy (
        tenant_id uuid PRIMARY KEY REFERENCES tenant (tenant_id),
        repeat_seconds integer CHECK (repeat_seconds IS NULL OR repeat_seconds BETWEEN 60 AND 604800),
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    declareTable('notification_policy', { owner: 'areas/notificationpolicy', tenantColumn: 'tenant_id' }),
    `ALTER TABLE rule_match
       ADD COLUMN notified timestamptz,
       ADD COLUMN repeats integer NOT NULL DEFAULT 0`,
    // The open matches whose notifications may repeat, which the repeat sweep reads every few seconds.
    `CREATE INDEX rule_match_repeat_idx ON rule_match (tenant_id, coalesce(notified, created))
       WHERE NOT completion_processed AND NOT pending AND NOT in_maintenance AND acknowledged IS NULL`,
  ]);
}
