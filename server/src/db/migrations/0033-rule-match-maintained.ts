import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/** The open matches in maintenance, which the worker checks every few seconds for a window that ended (engines/rules/maintenance-end.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE INDEX rule_match_maintained_idx ON rule_match (first_match) WHERE in_maintenance AND NOT completion_processed`,
  ]);
}
