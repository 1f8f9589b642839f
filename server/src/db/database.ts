import fs from 'node:fs/promises';
import path from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** A PostgreSQL connection string; unset means the embedded PGlite database. */
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files; `memory://` for a throw-away database. */
  pgliteDir: string;
  /** Postgres search_path, used by tests to isolate a run in its own schema. */
  schema?: string;
}

// timestamptz → Date, int8 (bigint, count(*)) → number: counts and identities stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const { PGlite } = await import('@electric-sql/pglite');
  if (!options.pgliteDir.startsWith('memory://')) await fs.mkdir(path.dirname(options.pgliteDir), { recursive: true });
  const pglite = await PGlite.create(options.pgliteDir, {
    // PGlite parses int8 like pg above, so both dialects hand the same types to the code.
    parsers: { 20: (value: string) => Number.parseInt(value, 10) },
  });
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
}
