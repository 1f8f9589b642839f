import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/** Tables that lists read (directly, through joins and $expand, or in a route's base query). */
const TRACKED = [
  'app_role',
  'app_user',
  'audit_event',
  'directory_group',
  'role_permission',
  'saved_view',
  'subscription',
  'tenant',
  'tenant_secret',
  'tenant_secret_version',
  'token_grant',
  'user_role',
  'user_tenant',
  'work_unit',
  'work_unit_category',
  'work_unit_event',
  'work_unit_note',
  'work_unit_relation',
  'work_unit_subcategory',
  'work_unit_type',
];

/**
 * A change counter per table, so that a polled list unchanged since its last answer is answered
 * `304 Not Modified` without running its query (server/src/http/list-etag.ts). Every write
 * statement on a tracked table takes the next value of the table's sequence; every instance reads
 * the sequences' values a few times a second and keeps them in memory (db/change-counters.ts).
 *
 * A statement trigger, not calls in the code: every write path, any instance, any future code,
 * moves the counter. A sequence, not a counter row: nextval holds no lock until commit, so
 * concurrent writers of one table never wait on each other (nor deadlock over counter rows taken in
 * different orders). Not NOTIFY either: PostgreSQL commits transactions that notified one at a
 * time (in queue order, behind a database-wide lock held through the commit's flush), which cut
 * concurrent single-row writes to a third in the benchmark.
 *
 * Jobs, engine cursors and sign-in records are not tracked: no list reads them, and they are
 * written all the time. A later table a list reads is tracked with `SELECT track_changes('name')`;
 * a list that reads an untracked table is simply never answered 304.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE FUNCTION count_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM nextval(quote_ident('change_counter_' || TG_TABLE_NAME));
        RETURN NULL;
      END $$`,
    `CREATE FUNCTION track_changes(table_name text) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        EXECUTE format('CREATE SEQUENCE %I', 'change_counter_' || table_name);
        EXECUTE format('CREATE TRIGGER count_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION count_change()', table_name);
      END $$`,
    ...TRACKED.map((table) => `SELECT track_changes('${table}')`),
  ]);
}
