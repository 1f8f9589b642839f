import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from './database.js';
import * as foundation from './migrations/0001-foundation.js';
import * as administration from './migrations/0002-administration.js';
import * as workUnits from './migrations/0003-work-units.js';

/** Migrations in order; a new one is appended here and never edited once released. */
const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-administration': administration,
  '0003-work-units': workUnits,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Runs the statements of a migration one by one (the extended query protocol takes one per call). */
export async function runStatements(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
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
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
