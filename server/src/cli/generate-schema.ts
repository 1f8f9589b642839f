import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { connect } from '../db/database.js';
import { startEmbeddedServer } from '../db/embedded-server.js';
import { migrateToLatest, type TableDeclaration } from '../db/migrate.js';

const serverRoot = path.resolve(import.meta.dirname, '..', '..');

const TABLES_FILE = path.join(serverRoot, 'src', 'db', 'tables.ts');

/**
 * Runs kysely-codegen (settings in server/.kysely-codegenrc.json) against a migrated database and
 * writes `src/db/schema.ts`, and the tables' declarations (`declareTable`) to `src/db/tables.ts`;
 * with `verify` it only checks that both files match the migrations.
 */
export async function generateSchemaTypes(url: string, options: { verify?: boolean } = {}): Promise<void> {
  const tables = renderTables(await readTableDeclarations(url));
  const cli = path.join(serverRoot, '..', 'node_modules', '.bin', 'kysely-codegen');
  await promisify(execFile)(
    cli,
    ['--config-file', '.kysely-codegenrc.json', '--url', url, ...(options.verify ? ['--verify'] : [])],
    { cwd: serverRoot },
  );
  if (!options.verify) return fs.writeFile(TABLES_FILE, tables);
  if ((await fs.readFile(TABLES_FILE, 'utf8')) !== tables)
    throw new Error('src/db/tables.ts is not what the migrations declare: run npm run db:types');
}

/** Each table's declaration, from its comment; a table without one is an error naming it. */
async function readTableDeclarations(url: string): Promise<Map<string, TableDeclaration>> {
  const db = connect(url, 1);
  try {
    const { rows } = await sql<{ table: string; comment: string | null }>`
      SELECT c.relname AS table, obj_description(c.oid, 'pg_class') AS comment
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm') AND NOT c.relispartition
        AND c.relname NOT LIKE 'kysely_%'
      ORDER BY c.relname COLLATE "C"`.execute(db);
    const undeclared = rows.filter((row) => row.comment === null).map((row) => row.table);
    if (undeclared.length > 0)
      throw new Error(`Tables without a declaration (declareTable in their migration): ${undeclared.join(', ')}`);
    return new Map(rows.map((row) => [row.table, JSON.parse(row.comment!) as TableDeclaration]));
  } finally {
    await db.destroy();
  }
}

/** `src/db/tables.ts`: TABLE_OWNERS and TENANT_TABLES as Prettier writes them. */
function renderTables(declarations: ReadonlyMap<string, TableDeclaration>): string {
  const owners = [...declarations].map(([table, { owner }]) => `  ${table}: '${owner}',`);
  const tenants = [...declarations]
    .filter(([, declaration]) => declaration.tenantColumn !== undefined)
    .map(
      ([table, { tenantColumn, sharedWhenNull }]) =>
        `  ${table}: { column: '${tenantColumn}'${sharedWhenNull ? ', sharedWhenNull: true' : ''} },`,
    );
  return [
    '/**',
    ' * Each table as the migration that creates it declares it (`declareTable` in migrate.ts), read',
    ' * from the migrated database by `npm run db:types`: not written by hand.',
    ' */',
    '',
    '/** The one folder (server/src/<owner>) that writes each table: see table-owners.ts. */',
    'export const TABLE_OWNERS = {',
    ...owners,
    '} as const;',
    '',
    '/** Every table that carries a tenant, with its tenant column: see tenant-tables.ts. */',
    'export const TENANT_TABLES = {',
    ...tenants,
    '} as const;',
    '',
  ].join('\n');
}

/** `npm run db:types`: migrates a throw-away embedded database and regenerates the table types from it. */
async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-schema-'));
  const server = await startEmbeddedServer({
    clusterDir: path.join(dataDir, 'postgres'),
    keysDir: path.join(dataDir, 'keys'),
  });
  try {
    const db = connect(server.url('postgres'), 1);
    await migrateToLatest(db);
    await db.destroy();
    await generateSchemaTypes(server.url('postgres'));
    console.log('Wrote server/src/db/schema.ts and server/src/db/tables.ts');
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
