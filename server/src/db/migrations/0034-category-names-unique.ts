import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * A tenant's category names are unique whatever their case, so the Resolution Center's Service
 * list and the work unit panel never offer two categories that read the same. Names written twice
 * before this rule keep their first category; each later one is renamed with its id appended
 * ("Network (17)"), which no name of the tenant already holds, so the index can be built and no
 * category or the units filed under it is lost.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `UPDATE work_unit_category AS c
        SET name = c.name || ' (' || c.work_unit_category_id || ')', modified = now(), modified_by = 'migration'
       FROM (
         SELECT work_unit_category_id,
                row_number() OVER (PARTITION BY tenant_id, lower(name) ORDER BY work_unit_category_id) AS n
           FROM work_unit_category
       ) AS ranked
      WHERE ranked.work_unit_category_id = c.work_unit_category_id AND ranked.n > 1`,
    `CREATE UNIQUE INDEX work_unit_category_tenant_name_key ON work_unit_category (tenant_id, lower(name))`,
  ]);
}
