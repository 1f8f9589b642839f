import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Running the portal as several processes:
 * - each worker process says it is alive every few seconds (`GET /readyz` of any instance reports
 *   whether a worker is running somewhere), and removes its row when it stops;
 * - a job remembers the request that caused it, so its log lines carry the same request id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE worker_heartbeat (
        worker_id text PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        started timestamptz NOT NULL DEFAULT now(),
        seen timestamptz NOT NULL DEFAULT now()
      )`,
    `ALTER TABLE job ADD COLUMN request_id text`,
  ]);
}
