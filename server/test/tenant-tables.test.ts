import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { connect } from '../src/db/database.js';
import { NOT_TENANT_OWNED, TENANT_TABLES } from '../src/db/tenant-tables.js';
import { serverSources } from './server-program.js';
import { createTestDatabase } from './test-database.js';

/*
 * Tenant scope is in the structure: every query of a table that carries a tenant starts from
 * `scoped(db, scope)` (a ScopedDb). This test reads the server's source with the TypeScript type
 * checker and fails on any selectFrom/updateTable/deleteFrom/insertInto of such a table whose
 * receiver is not a ScopedDb. Only the installation's own set-up writes outside it.
 */
const QUERY_METHODS = new Set(['selectFrom', 'updateTable', 'deleteFrom', 'insertInto']);

function unscopedQueries(): string[] {
  const { checker, files } = serverSources();
  const found: string[] = [];
  for (const { file, relative } of files) {
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        QUERY_METHODS.has(node.expression.name.text)
      ) {
        const [first] = node.arguments;
        const table = first && ts.isStringLiteralLike(first) ? first.text.split(/\s+as\s+/i)[0] : undefined;
        if (table && Object.hasOwn(TENANT_TABLES, table)) {
          const receiver = checker.getTypeAtLocation(node.expression.expression);
          if (receiver.getSymbol()?.getName() !== 'ScopedDb') {
            const { line } = file.getLineAndCharacterOfPosition(node.getStart());
            found.push(
              `src/${relative}:${line + 1} ${node.expression.name.text}('${first && ts.isStringLiteralLike(first) ? first.text : ''}')`,
            );
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

describe('tenant-owned tables', () => {
  test('are every migrated table with a tenant column, except the sign-in tables', async () => {
    const database = await createTestDatabase();
    const db = connect(database.url, 1);
    try {
      const { rows } = await sql<{ table_name: string }>`
        SELECT c.table_name FROM information_schema.columns c
        JOIN pg_class t ON t.oid = format('%I.%I', c.table_schema, c.table_name)::regclass
        WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' AND NOT t.relispartition -- a partition is its table's
        ORDER BY c.table_name`.execute(db);
      const withTenant = rows
        .map((row) => row.table_name)
        .filter((table) => !(NOT_TENANT_OWNED as readonly string[]).includes(table));
      expect(withTenant).toEqual(Object.keys(TENANT_TABLES).sort());
    } finally {
      await db.destroy();
      await database.drop();
    }
  });

  test('are queried only through scoped(): no select, update, delete or insert of one elsewhere', () => {
    expect(unscopedQueries()).toEqual([]);
  }, 180_000);
});
