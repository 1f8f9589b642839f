import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { up as uniqueCategoryNames } from '../src/db/migrations/0034-category-names-unique.js';
import { DEMO } from '../src/db/demo-ids.js';
import { ownDatabase, runMigration } from './test-database.js';

/*
 * Migration 0034 on a database as the release before it left it: a tenant could hold one category
 * name twice, in any case.
 */
const own = ownDatabase(2, (db) => sql`DROP INDEX work_unit_category_tenant_name_key`.execute(db));

async function category(tenantId: string, name: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`INSERT INTO work_unit_category (tenant_id, work_unit_type_id, name)
    SELECT ${tenantId}, work_unit_type_id, ${name} FROM work_unit_type ORDER BY work_unit_type_id LIMIT 1 RETURNING work_unit_category_id AS id`.execute(
    own.db,
  );
  return rows[0]!.id;
}

describe('making category names unique per tenant', () => {
  it('keeps the first of each name, renames the later ones with their id, leaves other tenants alone, and then refuses a duplicate', async () => {
    const first = await category(DEMO.contoso, 'Printers');
    const second = await category(DEMO.contoso, 'printers');
    const third = await category(DEMO.contoso, 'PRINTERS');
    const elsewhere = await category(DEMO.fabrikam, 'Printers');

    await runMigration(own.url, uniqueCategoryNames);

    const { rows } = await sql<{
      id: number;
      name: string;
    }>`SELECT work_unit_category_id AS id, name FROM work_unit_category
      WHERE work_unit_category_id IN (${first}, ${second}, ${third}, ${elsewhere}) ORDER BY work_unit_category_id`.execute(
      own.db,
    );
    expect(rows).toEqual([
      { id: first, name: 'Printers' },
      { id: second, name: `printers (${second})` },
      { id: third, name: `PRINTERS (${third})` },
      { id: elsewhere, name: 'Printers' },
    ]);
    await expect(category(DEMO.contoso, 'pRinters')).rejects.toThrow(/work_unit_category_tenant_name_key/);
  });
});
