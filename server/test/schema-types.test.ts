import { inject, test } from 'vitest';
import { generateSchemaTypes } from '../src/cli/generate-schema.js';
import { withDatabaseName } from '../src/db/database.js';

test('the table types in src/db/schema.ts are the ones generated from the migrated database (npm run db:types)', async () => {
  // kysely-codegen --verify exits non-zero when the file differs from what the migrations produce.
  await generateSchemaTypes(withDatabaseName(inject('testServerUrl'), inject('testTemplate')), { verify: true });
}, 60_000);
