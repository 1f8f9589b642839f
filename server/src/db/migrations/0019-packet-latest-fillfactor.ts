import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Every batch of packets rewrites the latest row of each entity it names. Pages kept a third
 * empty let PostgreSQL put the new version beside the old one (a HOT update): no index entry is
 * written and the old version is pruned within the page, so the table and its indexes do not
 * grow with every heartbeat.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE packet_latest SET (fillfactor = 70)`]);
}
