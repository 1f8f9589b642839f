import type { Kysely } from 'kysely';
import { declareTable, runStatements } from '../migrate.js';

/**
 * Acknowledging and silencing matches (docs/features/rules.md "Acknowledge and silence"):
 * - `rule_match.acknowledged`, `acknowledged_by`, `acknowledgement`: someone has taken the open
 *   match on, when, and their note; it ends with the match.
 * - `rule_silence`: while a silence covers a subject (its tenant; its rule, or every rule; its
 *   entity, or every entity with its label, or every entity), matches that open are recorded with
 *   their actions suppressed, as in maintenance, and run their match actions once it ends if their
 *   condition still holds. Made from a match (its rule and subject, from now) or ahead of time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE rule_match
       ADD COLUMN acknowledged timestamptz,
       ADD COLUMN acknowledged_by text,
       ADD COLUMN acknowledgement text`,
    `CREATE TABLE rule_silence (
        rule_silence_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        rule_id uuid REFERENCES rule (rule_id) ON DELETE CASCADE,
        subject_id text,
        label text,
        starts timestamptz NOT NULL,
        ends timestamptz NOT NULL,
        note text,
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        CHECK (ends > starts)
    )`,
    declareTable('rule_silence', { owner: 'engines/rules', tenantColumn: 'tenant_id' }),
    // The list's order (soonest to end first) for one tenant and for all, which is also how the
    // engine reads a tenant's silences not yet over.
    `CREATE INDEX rule_silence_tenant_idx ON rule_silence (tenant_id, ends, rule_silence_id)`,
    `CREATE INDEX rule_silence_ends_idx ON rule_silence (ends, rule_silence_id)`,
    // Silences are listed: their changes move the list's change counter (migration 0011).
    `SELECT track_changes('rule_silence')`,
  ]);
}
