import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * A script run's exit code and duration as the agent reports them, whole: Windows writes an exit
 * code as an unsigned 32-bit number (a crash is 3221225477, 0xC0000005), past `integer`, and a
 * duration in milliseconds may be too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE script_run ALTER COLUMN exit_code TYPE bigint, ALTER COLUMN duration_ms TYPE bigint`,
  ]);
}
