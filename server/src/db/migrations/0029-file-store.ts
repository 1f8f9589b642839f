import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The package file store in the database (FILE_STORE=database): a file by its SHA-256 and its
 * content in chunks of 1 MiB, so that no statement moves a whole file. Package files are mostly
 * compressed already, so the chunks are stored out of line without compression.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE stored_file (
        sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        size bigint NOT NULL CHECK (size >= 0),
        created timestamptz NOT NULL DEFAULT now()
      )`,
    `CREATE TABLE stored_file_chunk (
        sha256 text NOT NULL REFERENCES stored_file (sha256) ON DELETE CASCADE,
        n integer NOT NULL CHECK (n >= 0),
        data bytea NOT NULL,
        PRIMARY KEY (sha256, n)
      )`,
    `ALTER TABLE stored_file_chunk ALTER COLUMN data SET STORAGE EXTERNAL`,
  ]);
}
