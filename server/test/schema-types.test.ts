import { expect, inject, test } from 'vitest';
import { generateSchemaTypes } from '../src/cli/generate-schema.js';
import { withDatabaseName } from '../src/db/database.js';
import { declareTable, runStatements } from '../src/db/migrate.js';
import { createTestDatabase, runMigration } from './test-database.js';

test('the table types in src/db/schema.ts and the declarations in src/db/tables.ts are the ones generated from the migrated database (npm run db:types)', async () => {
  // kysely-codegen --verify exits non-zero when the file differs from what the migrations produce.
  await generateSchemaTypes(withDatabaseName(inject('testServerUrl'), inject('testTemplate')), { verify: true });
}, 60_000);

// The table's name is one no area would take: the test runs on a fully migrated database.
test('a migration that creates a table without declaring its owner fails the check naming the table, and passes that step once it declares one', async () => {
  const database = await createTestDatabase();
  try {
    await runMigration(database.url, (db) =>
      runStatements(db, ['CREATE TABLE undeclared_example (example_id uuid PRIMARY KEY)']),
    );
    await expect(generateSchemaTypes(database.url, { verify: true })).rejects.toThrow(
      'Tables without a declaration (declareTable in their migration): undeclared_example',
    );
    await runMigration(database.url, (db) =>
      runStatements(db, [
        'ALTER TABLE undeclared_example ADD COLUMN tenant_id uuid',
        declareTable('undeclared_example', { owner: 'areas/examples', tenantColumn: 'tenant_id' }),
      ]),
    );
    // Declared, it is named no more: what is left is that schema.ts and tables.ts are out of date.
    await expect(generateSchemaTypes(database.url, { verify: true })).rejects.not.toThrow('without a declaration');
  } finally {
    await database.drop();
  }
}, 60_000);
