import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * A match keeps the packet that opened it beside the newest one (`rule_packet`, replaced on every
 * raise): the timeline says what caused a match, and that is the first packet that matched, not
 * the last. Matches opened before keep only their newest packet; the timeline falls back to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE rule_match ADD COLUMN first_packet jsonb`]);
}
