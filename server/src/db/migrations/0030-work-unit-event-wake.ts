import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * A transaction that records work unit events says so when it commits: NOTIFY work_unit_event
 * with its transaction id, once per transaction (PostgreSQL folds equal notifications of one
 * transaction). The workers then run the event consumers (protocols, rules, maintenance) at once
 * instead of at their next period (engines/jobs/worker.ts, `wakeOn`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE FUNCTION work_unit_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('work_unit_event', pg_current_xact_id()::text);
        RETURN NULL;
      END
    $$`,
    `CREATE TRIGGER work_unit_event_notify AFTER INSERT ON work_unit_event FOR EACH STATEMENT EXECUTE FUNCTION work_unit_event_notify()`,
  ]);
}
