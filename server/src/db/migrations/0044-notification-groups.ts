import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Grouped notifications (docs/features/rules.md "Grouped notifications"): a tenant whose policy
 * groups holds the notifying actions of each match that opens, and one notification goes for all
 * the matches of a group (one rule, one location or one subscription) that opened within its wait.
 * - `notification_policy.group_by` ('rule', 'location', 'subscription'; none: no grouping) and
 *   `group_wait_seconds`: how long the first match of a group waits for others;
 * - `rule_match.group_key`: the group it was held for, and `grouped`: since when; it leaves the
 *   group when `notified` is set (the group's notification went, or the match had closed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE notification_policy
       ADD COLUMN group_by text CHECK (group_by IN ('rule', 'location', 'subscription')),
       ADD COLUMN group_wait_seconds integer NOT NULL DEFAULT 30 CHECK (group_wait_seconds BETWEEN 10 AND 3600)`,
    `ALTER TABLE rule_match
       ADD COLUMN group_key text,
       ADD COLUMN grouped timestamptz`,
    // The matches held for their group's notification, which the group sweep reads every few seconds.
    `CREATE INDEX rule_match_grouped_idx ON rule_match (grouped) WHERE grouped IS NOT NULL AND notified IS NULL`,
  ]);
}
