import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Matches that close on recovery (docs/features/rules.md "A match's life"). A rule says how its matches
 * close: when their lifetime runs out (`expiry`, every rule written before), or when the packets
 * show the problem is over (`recovery`): its recovery conditions hold, or, without them, its
 * conditions no longer hold; a subject that sends nothing for the lifetime closes its match as
 * "no data". A rule may ask that its conditions hold for a pending period before a match opens.
 *
 * - `rule.closes_on`, `rule.pending_seconds`, `rule.recovery_conditions` (null: the conditions no
 *   longer holding is the recovery);
 * - `rule_match.pending`: the conditions hold but not yet for the pending period (no action ran);
 * - `rule_match.recovers`: the match closes on recovery (copied from its rule when it opened);
 * - `rule_match.outcome`: how a closed match ended: `expired`, `recovered` or `noData`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE rule
       ADD COLUMN closes_on text NOT NULL DEFAULT 'expiry' CHECK (closes_on IN ('expiry', 'recovery')),
       ADD COLUMN pending_seconds integer NOT NULL DEFAULT 0 CHECK (pending_seconds >= 0),
       ADD COLUMN recovery_conditions jsonb`,
    `ALTER TABLE rule_match
       ADD COLUMN pending boolean NOT NULL DEFAULT false,
       ADD COLUMN recovers boolean NOT NULL DEFAULT false,
       ADD COLUMN outcome text CHECK (outcome IN ('expired', 'recovered', 'noData'))`,
    // The open and pending matches the recovery sweep reads every few seconds.
    `CREATE INDEX rule_match_recovering_idx ON rule_match (rule_id, subject_id) WHERE recovers AND NOT completion_processed`,
  ]);
}
