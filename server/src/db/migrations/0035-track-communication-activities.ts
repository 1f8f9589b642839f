import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * A communication's activities list (its drawer's Activities tab) is answered 304 while nothing
 * changed, as the other lists are: migration 0023 created the table without its change counter
 * (migration 0011), so the list ran its query on every poll.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`SELECT track_changes('work_unit_communication_activity')`]);
}
