import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { copyStoredFiles, fileFolder, fileStoreOf, fileStoreOfKind, storedPath } from '../files/content-store.js';
import { connect } from './database.js';
import { startEmbeddedServer, type EmbeddedServer } from './embedded-server.js';

/**
 * What a backup holds besides the database: the keys (the secrets key that opens tenant secrets,
 * the identity provider's signing key, the embedded server's password) and, with FILE_STORE=folder,
 * the package files (FILE_STORE_DIR; with FILE_STORE=database they are in the dump). Without the
 * keys a restored database's secrets cannot be read and its users' sessions end.
 */
const KEYS_FOLDER = 'keys';
/** The backup's copy of a folder store (the store's own layout below it). */
const FILES_FOLDER = 'files';
const DUMP_FILE = 'database.dump';
const MANIFEST_FILE = 'backup.json';

/** How pg_dump and pg_restore reach the portal's database: arguments and environment. */
interface PgTarget {
  url: string;
  args: string[];
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The portal's database: DATABASE_URL, or the embedded server under DATA_DIR (shared with a running
 * portal, or started for the while and stopped again). The embedded password goes to the tools in
 * the environment, not on their command line where any local user could read it.
 */
async function openTarget(config: Config): Promise<PgTarget> {
  if (config.databaseUrl)
    return {
      url: config.databaseUrl,
      args: [`--dbname=${config.databaseUrl}`],
      env: {},
      close: () => Promise.resolve(),
    };
  const server: EmbeddedServer = await startEmbeddedServer({
    clusterDir: path.join(config.dataDir, 'postgres'),
    keysDir: path.join(config.dataDir, 'keys'),
  });
  const { host, port, user, password } = server.connection;
  return {
    url: server.url('postgres'),
    args: ['--dbname=postgres'],
    env: { PGHOST: host, PGPORT: String(port), PGUSER: user, PGPASSWORD: password },
    close: () => server.stop(),
  };
}

/** PostgreSQL's client tools: from PG_BIN when set (e.g. /usr/lib/postgresql/17/bin), else from PATH. */
function tool(name: 'pg_dump' | 'pg_restore'): string {
  return process.env.PG_BIN ? path.join(process.env.PG_BIN, name) : name;
}

function run(command: string, args: readonly string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', (error) =>
      reject(
        new Error(
          `${command} could not be run (${error.message}); install PostgreSQL's client tools or set PG_BIN to their folder.`,
        ),
      ),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}):\n${errors.trim()}`)),
    );
  });
}

function isEmptyFolder(folder: string): boolean {
  return !fs.existsSync(folder) || fs.readdirSync(folder).length === 0;
}

/** Copies a folder with its files' modes (the keys stay owner-only), leaving out the store's unfinished uploads. */
function copyFolder(from: string, to: string): void {
  if (!fs.existsSync(from)) return;
  fs.cpSync(from, to, {
    recursive: true,
    preserveTimestamps: true,
    filter: (source) => source !== path.join(from, 'tmp'),
  });
  fs.chmodSync(to, fs.statSync(from).mode & 0o777);
}

/**
 * `npm run backup -- <folder>`: the database (pg_dump, custom format), DATA_DIR/keys and the
 * package store into an empty folder, while the portal runs. The dump is taken in one snapshot;
 * the package files that snapshot names are copied after it and checked, so a version deleted in
 * between cannot leave the backup naming a file it does not hold.
 */
export async function backup(config: Config, folder: string, log: (line: string) => void = console.log): Promise<void> {
  if (!isEmptyFolder(folder)) throw new Error(`${folder} is not empty: a backup goes into a folder of its own.`);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const target = await openTarget(config);
  const db = connect(target.url, 1);
  try {
    const named = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const { rows } = await sql<{ snapshot: string }>`SELECT pg_export_snapshot() AS snapshot`.execute(trx);
        const files = await trx.selectFrom('package_version').select('file_sha256').distinct().execute();
        await run(
          tool('pg_dump'),
          [
            '--format=custom',
            `--snapshot=${rows[0]?.snapshot ?? ''}`,
            `--file=${path.join(folder, DUMP_FILE)}`,
            ...target.args,
          ],
          target.env,
        ).catch((error: unknown) => {
          if (!(error instanceof Error) || !/version mismatch/.test(error.message)) throw error;
          throw new Error(
            `${error.message}\npg_dump must be of the server's major version or later (the embedded server is PostgreSQL 17): set PG_BIN to such tools, or stop the portal and copy DATA_DIR whole.`,
          );
        });
        return files.map((file) => file.file_sha256.toLowerCase());
      });
    copyFolder(path.join(config.dataDir, KEYS_FOLDER), path.join(folder, KEYS_FOLDER));
    const { fileStore } = config;
    if (fileStore.kind === 'folder') {
      copyFolder(fileFolder(fileStore.dir), fileFolder(path.join(folder, FILES_FOLDER)));
      const missing = named.filter((sha256) => !fs.existsSync(storedPath(path.join(folder, FILES_FOLDER), sha256)));
      if (missing.length > 0)
        throw new Error(
          `${missing.length} package file(s) the database names are not in ${fileStore.dir} (deleted while the backup ran?): run the backup again.`,
        );
    }
    fs.writeFileSync(
      path.join(folder, MANIFEST_FILE),
      `${JSON.stringify({ createdAt: new Date().toISOString(), version: config.version, database: config.databaseUrl ? 'DATABASE_URL' : 'embedded', packageFiles: named.length }, null, 2)}\n`,
    );
    log(
      `Backed up the database, ${path.join(config.dataDir, KEYS_FOLDER)} and ${named.length} package file(s) (${config.fileStore.kind === 'folder' ? `from ${config.fileStore.dir}` : 'in the database'}) into ${folder}.`,
    );
    if (config.secrets.key)
      log('SECRETS_KEY is set in the environment: keep it with the backup, which does not hold it.');
  } finally {
    await db.destroy();
    await target.close();
  }
}

/**
 * `npm run restore -- <folder>`: a backup into an empty DATA_DIR and an empty database (the
 * embedded server's new cluster, made with the backed-up password, or the one at DATABASE_URL).
 * The portal then starts on them as it was.
 */
export async function restore(
  config: Config,
  folder: string,
  log: (line: string) => void = console.log,
): Promise<void> {
  if (!fs.existsSync(path.join(folder, MANIFEST_FILE)) || !fs.existsSync(path.join(folder, DUMP_FILE)))
    throw new Error(`${folder} holds no backup (${MANIFEST_FILE} and ${DUMP_FILE}).`);
  const { fileStore } = config;
  // The places a restore fills, which must be empty before it; emptied again when it fails before
  // the database holds the backup (the server cannot be reached, the database is not empty,
  // pg_restore fails), so that the same restore can be run again once that is put right.
  const places = [KEYS_FOLDER, 'postgres'].map((name) => path.join(config.dataDir, name));
  if (fileStore.kind === 'folder') places.push(fileFolder(fileStore.dir));
  const taken = places.filter((place) => !isEmptyFolder(place));
  if (taken.length > 0)
    throw new Error(`${taken.join(', ')} already hold data: restore into an empty DATA_DIR and file store.`);
  const hasFiles = fs.existsSync(fileFolder(path.join(folder, FILES_FOLDER)));
  let loaded = false;
  try {
    fs.mkdirSync(config.dataDir, { recursive: true });
    copyFolder(path.join(folder, KEYS_FOLDER), path.join(config.dataDir, KEYS_FOLDER));
    if (hasFiles && fileStore.kind === 'folder')
      copyFolder(fileFolder(path.join(folder, FILES_FOLDER)), fileFolder(fileStore.dir));
    await loadBackup(config, folder, hasFiles, () => (loaded = true));
  } catch (error) {
    if (!loaded) for (const place of places) fs.rmSync(place, { recursive: true, force: true });
    throw error;
  }
  log(
    `Restored ${folder} into ${config.dataDir}${config.databaseUrl ? ' and DATABASE_URL' : ''}: start the portal with the same settings.`,
  );
}

/** The dump into the restore's database (`loaded` called once it holds it), then the package files into this portal's store. */
async function loadBackup(config: Config, folder: string, hasFiles: boolean, loaded: () => void): Promise<void> {
  const target = await openTarget(config);
  try {
    const db = connect(target.url, 1);
    try {
      const { rows } = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`.execute(db);
      if ((rows[0]?.n ?? 0) > 0)
        throw new Error(
          'The database is not empty: restore into an empty database (a portal started on it has made its tables already).',
        );
    } finally {
      await db.destroy();
    }
    await run(
      tool('pg_restore'),
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        ...target.args,
        path.join(folder, DUMP_FILE),
      ],
      target.env,
    );
    loaded();
    // The package files into the store this portal uses, wherever the backup kept them (a folder, or its dump).
    const files = connect(target.url, 1);
    try {
      const from = fileStoreOfKind(
        config,
        hasFiles ? { kind: 'folder', dir: path.join(folder, FILES_FOLDER) } : { kind: 'database' },
      );
      const hashes = await files.selectFrom('package_version').select('file_sha256').distinct().execute();
      await copyStoredFiles(
        files,
        from,
        fileStoreOf(config),
        hashes.map((row) => row.file_sha256.toLowerCase()),
      );
    } finally {
      await files.destroy();
    }
  } finally {
    await target.close();
  }
}
