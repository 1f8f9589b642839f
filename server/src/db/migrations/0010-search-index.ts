import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The work units grid's search served by indexes at a million rows.
 *
 * The search box sends an OR of `contains(tolower(field),'term')` over the search fields (or an
 * OR of `field eq 'term'` with Exact Match), which was answered by reading and checking every row
 * that the other filters left: 880 ms for the default list's search at 1M rows, and 740 ms again
 * for its count. The count of the default list's search at 1M rows, by term ('unit 4242' / '4242' /
 * 'inc0042424' / no match; milliseconds, on 2 busy cores):
 * - one trigram index over the seven text fields joined (this one): 31–65 / 8–23 / 7–17 / 0.3–5;
 * - a trigram index per field, BitmapOr-ed: 82–115 / 16–34 / 20–30 / 15–28, with seven indexes to
 *   keep up on every write;
 * - full-text search on the same text: 18–33 / 6–39 / 10–20 / 0.1–2, but it matches whole words
 *   (`4242` does not find `42420`, `inc004` finds nothing), not the substring the grid promises.
 * An index on the expression rather than a stored generated column of it: the same speed, without
 * rewriting the table under an exclusive lock (30 s at 1M rows) or storing the text twice (+70% heap).
 * The list layer writes the same expression (`searchTextSql`, the resource's `searchFields`) and
 * checks each row the index finds with the original condition, so the separator keeps a term from
 * matching across two fields only to save that check work.
 *
 * The Tenant arm (`tenant/name`) is looked up in the tenants' own trigram index and becomes
 * `tenant_id = ANY(keys)`, which the planner BitmapOrs with the other arms. Terms without three
 * letters or digits in a row hold no trigram: their rows are read, as before, but one LIKE over the
 * joined text rules most of them out at half the cost of checking each field.
 *
 * Exact Match compares each field with `=`: b-tree indexes on the fields that had none, and a hash
 * index on the description, whose 4,000 characters can exceed a b-tree entry's limit (2,704 bytes).
 *
 * Upgrade cost: the indexes are built in the migration's transaction, which holds off writes to
 * work units (not reads) while they build: at 1M work units about 80–120 s for the trigram index
 * and 3–8 s for each of the others on 2 cores. Writes pay for the trigram index afterwards: 50,000
 * work units inserted at once took 10–19 s, against 3.5–3.8 s without it (one unit at a time, a
 * fraction of a millisecond). pg_trgm is a trusted extension (PostgreSQL 13+): a database owner
 * without superuser rights may create it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
    `CREATE INDEX work_unit_search_idx ON work_unit USING gin ((lower(
        coalesce(title, '') || E'\\x1f' || coalesce(reference_id, '') || E'\\x1f' || coalesce(description, '') || E'\\x1f' ||
        coalesce(assigned_to, '') || E'\\x1f' || coalesce(stakeholder_full_name, '') || E'\\x1f' ||
        coalesce(stakeholder_phone_number, '') || E'\\x1f' || coalesce(stakeholder_email_address, ''))) gin_trgm_ops)`,
    `CREATE INDEX tenant_name_search_idx ON tenant USING gin (lower(name) gin_trgm_ops)`,
    `CREATE INDEX work_unit_title_idx ON work_unit (title)`,
    `CREATE INDEX work_unit_reference_idx ON work_unit (reference_id)`,
    `CREATE INDEX work_unit_description_idx ON work_unit USING hash (description)`,
    `CREATE INDEX work_unit_assigned_to_idx ON work_unit (assigned_to)`,
    `CREATE INDEX work_unit_stakeholder_name_idx ON work_unit (stakeholder_full_name)`,
    `CREATE INDEX work_unit_stakeholder_phone_idx ON work_unit (stakeholder_phone_number)`,
    `CREATE INDEX work_unit_stakeholder_email_idx ON work_unit (stakeholder_email_address)`,
  ]);
}
