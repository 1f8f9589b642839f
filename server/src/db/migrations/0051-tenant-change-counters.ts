import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The tables machines write all the time, whose changes the live screens follow (areas/live/topics.ts):
 * agents' latest packets, and their devices' last contact (every configuration call); the rule
 * engine's matches and entity colours.
 */
const TENANT_TRACKED = ['packet_latest', 'device', 'rule_match', 'entity_color'];

/** A tenant id's group, `00` to `63` (its first two hex digits, shifted right by two), or `all` for none. */
const GROUP_SQL = (tenant: string) =>
  `coalesce(lpad(((('x' || substr(${tenant}::text, 1, 2))::bit(8)::int) >> 2)::text, 2, '0'), 'all')`;

/**
 * Change counters by tenant, beside each table's own (migration 0011), for the tables that agents
 * and the rule engine write all the time: a live screen is told of its tenants' changes only, not
 * of every tenant's packets (db/change-counters.ts, areas/live/routes.ts).
 *
 * A tenant falls in one of 64 groups by the first two hex digits of its id (`tenantCounterGroup`
 * in db/change-counters.ts computes the same), and each group of each table has a sequence,
 * `tenant_counter_{table}_{group}`, which a write statement moves once per group whose rows it
 * wrote; rows of no tenant move `tenant_counter_{table}_all`, heard by every screen. Groups, not a
 * sequence per tenant: a fixed number of sequences to read when the table has moved, whatever the
 * number of tenants; a tenant sharing a group with others hears their changes too, as every tenant
 * did before. A statement trigger for each of insert, update and delete (transition tables take
 * one event each) reads the tenant_id of the rows it wrote, old and new, from its transition tables.
 * Their names sort before `count_change`, so a statement moves its groups' counters before the
 * table's own: a reading that sees the table's counter move reads its groups already moved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    // One static statement per event (transition tables take one event each), planned once.
    `CREATE FUNCTION count_tenant_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        tenant_group text;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          FOR tenant_group IN SELECT DISTINCT ${GROUP_SQL('tenant_id')} FROM new_rows LOOP
            PERFORM nextval(quote_ident('tenant_counter_' || TG_TABLE_NAME || '_' || tenant_group));
          END LOOP;
        ELSIF TG_OP = 'UPDATE' THEN
          FOR tenant_group IN SELECT DISTINCT ${GROUP_SQL('t')}
              FROM (SELECT tenant_id FROM new_rows UNION SELECT tenant_id FROM old_rows) AS written (t) LOOP
            PERFORM nextval(quote_ident('tenant_counter_' || TG_TABLE_NAME || '_' || tenant_group));
          END LOOP;
        ELSE
          FOR tenant_group IN SELECT DISTINCT ${GROUP_SQL('tenant_id')} FROM old_rows LOOP
            PERFORM nextval(quote_ident('tenant_counter_' || TG_TABLE_NAME || '_' || tenant_group));
          END LOOP;
        END IF;
        RETURN NULL;
      END $$`,
    `CREATE FUNCTION track_tenant_changes(table_name text) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        FOR tenant_group IN 0..63 LOOP
          EXECUTE format('CREATE SEQUENCE %I', 'tenant_counter_' || table_name || '_' || lpad(tenant_group::text, 2, '0'));
        END LOOP;
        EXECUTE format('CREATE SEQUENCE %I', 'tenant_counter_' || table_name || '_all');
        EXECUTE format('CREATE TRIGGER count_by_tenant_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_tenant_change()', table_name);
        EXECUTE format('CREATE TRIGGER count_by_tenant_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_tenant_change()', table_name);
        EXECUTE format('CREATE TRIGGER count_by_tenant_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_tenant_change()', table_name);
      END $$`,
    ...TENANT_TRACKED.map((table) => `SELECT track_tenant_changes('${table}')`),
  ]);
}
