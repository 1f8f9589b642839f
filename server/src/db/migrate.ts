import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { FileMigrationProvider, Migrator } from 'kysely/migration';
import type { Db } from './database.js';

/**
 * The files of `migrations/`, in the order of their names (`0004-jobs.ts`): a new area adds its
 * own file there, and a released one is never edited.
 */
const provider = new FileMigrationProvider({
  fs,
  path,
  migrationFolder: path.join(import.meta.dirname, 'migrations'),
  import: (file) => import(pathToFileURL(file).href),
});

/** Runs the statements of a migration one by one (the extended query protocol takes one per call). */
export async function runStatements(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** What a migration declares of a table it creates: the folder that writes it, and its tenant column if it has one. */
export interface TableDeclaration {
  /** The one folder (server/src/<owner>) that inserts, updates and deletes its rows. */
  readonly owner: string;
  /** The column naming the tenant a row belongs to: the table is then read and written only through `scoped()`. */
  readonly tenantColumn?: string;
  /** A row without a tenant belongs to the installation and is visible to every caller. */
  readonly sharedWhenNull?: boolean;
}

/**
 * The statement that records a table's (or a view's) declaration on the table itself, beside the
 * statement that creates it: `npm run db:types` reads the declarations of the migrated database into `tables.ts`
 * (TABLE_OWNERS, TENANT_TABLES), and fails on a table without one.
 */
export function declareTable(table: string, declaration: TableDeclaration, kind: 'TABLE' | 'VIEW' = 'TABLE'): string {
  return `COMMENT ON ${kind} ${table} IS '${JSON.stringify(declaration).replaceAll("'", "''")}'`;
}

/**
 * Brings the schema up to date. Several instances may start at once against one PostgreSQL
 * server: Kysely's migrator takes an advisory lock, so only one of them migrates.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(
      failed ? `Migration ${failed.migrationName} failed: ${reason}` : `The migrations could not run: ${reason}`,
      { cause: error },
    );
  }
}

let migrationNames: Promise<string[]> | undefined;

/** The migrations this build has that the database has not run (none once start-up migrated it). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  migrationNames ??= provider.getMigrations().then((migrations) => Object.keys(migrations));
  const names = await migrationNames;
  const ran = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
  const done = new Set(ran.rows.map((row) => row.name));
  return names.filter((name) => !done.has(name));
}
