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
 * statement on a tracked table takes the next value of the table's sequence and announces it at
 * commit (NOTIFY table_changed, `table:value`); every instance keeps the last value it heard.
 *
 * A statement trigger, not calls in the code: every write path, any instance, any future code,
 * bumps the counter. A sequence, not a counter row: nextval holds no lock until commit, so
 * concurrent writers of one table never wait on each other (nor deadlock over counter rows taken in
 * different orders). One announcement per table and transaction (a transaction-local marker): a
 * transaction of many statements costs one value and one notification per table it writes.
 *
 * Jobs, engine cursors and sign-in records are not tracked: no list reads them, and they are
 * written all the time. A later table a list reads is tracked with `SELECT track_changes('name')`;
 * a list that reads an untracked table is simply never answered 304.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE FUNCTION announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        marker text := 'cfs_changes.' || TG_TABLE_NAME;
      BEGIN
        IF coalesce(current_setting(marker, true), '') = '' THEN
          PERFORM pg_notify('table_changed', TG_TABLE_NAME || ':' || nextval(quote_ident('change_counter_' || TG_TABLE_NAME))::text);
          PERFORM set_config(marker, 'announced', true);
        END IF;
        RETURN NULL;
      END $$`,
    `CREATE FUNCTION track_changes(table_name text) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        EXECUTE format('CREATE SEQUENCE %I', 'change_counter_' || table_name);
        EXECUTE format('CREATE TRIGGER announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION announce_change()', table_name);
      END $$`,
    ...TRACKED.map((table) => `SELECT track_changes('${table}')`),
  ]);
}
