import path from 'node:path';
import type { FileStoreSetting } from '../config.js';
import { openDatabase } from '../db/database.js';
import { copyStoredFiles, fileStoreOf, fileStoreOfKind } from '../files/content-store.js';
import { commandArgument, commandConfig, runCommand } from './command.js';

/**
 * `npm run files:copy -- <folder|database>`: copies every package file from the store the
 * portal's settings name (FILE_STORE, FILE_STORE_DIR) into the other kind, so that FILE_STORE can
 * be switched: run it, then restart every instance with the new setting. Safe to run again, and
 * while the portal runs (a version uploaded meanwhile is copied by a second run).
 */
async function main(): Promise<void> {
  const usage =
    'usage: npm run files:copy -- <folder|database>   (folder: into FILE_STORE_DIR, default DATA_DIR/files)';
  const kind = commandArgument(usage);
  if (kind !== 'folder' && kind !== 'database') {
    console.error(usage);
    process.exit(2);
  }
  const config = commandConfig();
  const target: FileStoreSetting =
    kind === 'database'
      ? { kind }
      : { kind, dir: path.resolve(process.env.FILE_STORE_DIR ?? path.join(config.dataDir, 'files')) };
  if (config.fileStore.kind === kind) {
    console.error(`FILE_STORE is ${kind} already: run this with the settings of the store the files are in now.`);
    process.exit(2);
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    const hashes = await database.db.selectFrom('package_version').select('file_sha256').distinct().execute();
    const copied = await copyStoredFiles(
      database.db,
      fileStoreOf(config),
      fileStoreOfKind(config, target),
      hashes.map((row) => row.file_sha256.toLowerCase()),
    );
    console.log(
      `Copied ${copied} of ${hashes.length} package file(s) into the ${kind} store; the others were there already. Restart the portal with FILE_STORE=${kind}.`,
    );
  } finally {
    await database.close();
  }
}

runCommand(main);
