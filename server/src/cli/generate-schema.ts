import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { connect } from '../db/database.js';
import { startEmbeddedServer } from '../db/embedded-server.js';
import { migrateToLatest } from '../db/migrate.js';

const serverRoot = path.resolve(import.meta.dirname, '..', '..');

/**
 * Runs kysely-codegen (settings in server/.kysely-codegenrc.json) against a migrated database:
 * writes `src/db/schema.ts`, or with `verify` only checks that the file matches the migrations.
 */
export async function generateSchemaTypes(url: string, options: { verify?: boolean } = {}): Promise<void> {
  const cli = path.join(serverRoot, '..', 'node_modules', '.bin', 'kysely-codegen');
  await promisify(execFile)(
    cli,
    ['--config-file', '.kysely-codegenrc.json', '--url', url, ...(options.verify ? ['--verify'] : [])],
    { cwd: serverRoot },
  );
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
    console.log('Wrote server/src/db/schema.ts');
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
