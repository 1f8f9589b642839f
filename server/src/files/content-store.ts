import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config, FileStoreSetting } from '../config.js';
import type { Db, Tx } from '../db/database.js';

/**
 * The content-addressed file store of package versions: a file is named only by its SHA-256, so
 * the name it was uploaded under never becomes a path (no traversal, however it is spelled) and
 * the same content is kept once. Where the files live is a setting (FILE_STORE):
 * - `folder` (the default): `FILE_STORE_DIR/sha256/<first two hex digits>/<64 hex digits>`,
 *   FILE_STORE_DIR being `DATA_DIR/files` unless set; several instances share it on a shared path.
 * - `database`: in the portal's database (`stored_file`, its content in 1 MiB chunks), so that
 *   instances share nothing but PostgreSQL and a backup of the database holds the files too.
 *
 * An upload is received into a temporary file on this instance's disk while it is hashed; it is
 * kept in the transaction that saves the version that names it (keep), so a saved row always names
 * a kept file, and in the database store a rolled-back save keeps nothing.
 *
 * @example
 *   const store = fileStoreOf(config);
 *   const received = await store.receive(part.stream, config.packageUploadMaxBytes);
 *   await db.transaction().execute(async (trx) => { …insert the row…; await received.keep(trx); });
 *   await received.discard();
 */
export interface FileStore {
  /**
   * Streams `source` into a temporary file while hashing it. Over `maxBytes` the stream is
   * stopped, the temporary file removed and FileTooLargeError thrown.
   */
  receive(source: Readable, maxBytes: number, isTruncated?: () => boolean): Promise<ReceivedFile>;
  /** Keeps content given in full (the demo's small scripts); keeping the same content again changes nothing. */
  put(trx: Tx, content: string | Buffer): Promise<{ sha256: string; size: number }>;
  /** The stored file of a hash as a readable stream, or null when it is not there (or the hash is malformed). */
  open(db: Db, sha256: string): Promise<{ stream: Readable; size: number } | null>;
  /** Removes a hash's file, when no row names it any more (the caller checks, under the file's lock). */
  remove(trx: Tx, sha256: string): Promise<void>;
}

/** A file received into the store's temporary folder, hashed, not yet kept. */
export interface ReceivedFile {
  sha256: string;
  size: number;
  /** Keeps the file at its content address, in the transaction that saves the row naming it (content already kept stays as it is). */
  keep(trx: Tx): Promise<void>;
  /** Removes the temporary file; safe to call after `keep` or twice. */
  discard(): Promise<void>;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${String(maxBytes)} bytes.`);
    this.name = 'FileTooLargeError';
  }
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The size of one stored chunk in the database store. */
export const CHUNK_BYTES = 1024 * 1024;

/** The folder store's files, below FILE_STORE_DIR (what a backup copies). */
export function fileFolder(dir: string): string {
  return path.join(dir, 'sha256');
}

/** Where a hash's file lives in the folder store; anything but 64 lower-case hex digits is refused before a path is built. */
export function storedPath(dir: string, sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error('Not a SHA-256');
  return path.join(fileFolder(dir), sha256.slice(0, 2), sha256);
}

/**
 * Package files are readable by the portal's own user only, like its keys: folders 0700, files 0600
 * (a package may hold credentials or a customer's scripts). New ones are made so; `makeFilesPrivate`
 * narrows what an earlier version left readable to everyone, once at start.
 */
const PRIVATE_FOLDER = 0o700;
const PRIVATE_FILE = 0o600;

/** Narrows the modes of the store's existing folders and files (and its temporary folder) to the owner's. */
export async function makeFilesPrivate(config: Pick<Config, 'dataDir' | 'fileStore'>): Promise<void> {
  const root = config.fileStore.kind === 'folder' ? config.fileStore.dir : path.join(config.dataDir, 'uploads');
  const entries = await fs
    .readdir(root, { recursive: true, withFileTypes: true })
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
  if (entries === null) return;
  const targets = [
    { file: root, mode: PRIVATE_FOLDER },
    ...entries.map((entry) => ({
      file: path.join(entry.parentPath, entry.name),
      mode: entry.isDirectory() ? PRIVATE_FOLDER : PRIVATE_FILE,
    })),
  ];
  for (const { file, mode } of targets) {
    try {
      const stat = await fs.lstat(file);
      if (!stat.isSymbolicLink() && (stat.mode & 0o777) !== mode) await fs.chmod(file, mode);
    } catch (error) {
      // Gone meanwhile (another instance kept or removed it), or a shared folder's file another
      // user owns: that is the other instance's to narrow, and no reason not to start.
      if (!['ENOENT', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
}

/** The store the configuration names (FILE_STORE, FILE_STORE_DIR). */
export function fileStoreOf(config: Pick<Config, 'dataDir' | 'fileStore'>): FileStore {
  return config.fileStore.kind === 'folder'
    ? folderStore(config.fileStore.dir)
    : databaseStore(path.join(config.dataDir, 'uploads'));
}

/** The store of each kind, for copying between them (copyStoredFiles). */
export function fileStoreOfKind(config: Pick<Config, 'dataDir'>, setting: FileStoreSetting): FileStore {
  return fileStoreOf({ dataDir: config.dataDir, fileStore: setting });
}

/**
 * Streams `source` into a new file in `tempDir` while hashing it; the caller keeps or discards it.
 * The multipart reader stops at its own limit without an error (it only marks the file truncated),
 * so `isTruncated` is asked too.
 */
async function receiveInto(
  tempDir: string,
  source: Readable,
  maxBytes: number,
  isTruncated: () => boolean,
): Promise<{ tempPath: string; sha256: string; size: number; discard: () => Promise<void> }> {
  await fs.mkdir(tempDir, { recursive: true, mode: PRIVATE_FOLDER });
  const tempPath = path.join(tempDir, `${randomUUID()}.part`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new FileTooLargeError(maxBytes));
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  const discard = () => fs.rm(tempPath, { force: true });
  try {
    await pipeline(source, meter, createWriteStream(tempPath, { flags: 'wx', mode: PRIVATE_FILE }));
    if (isTruncated()) throw new FileTooLargeError(maxBytes);
  } catch (error) {
    await discard();
    // Drain what the client still sends, so the answer reaches it.
    source.resume();
    throw error;
  }
  return { tempPath, sha256: hash.digest('hex'), size, discard };
}

function folderStore(dir: string): FileStore {
  const keepAt = async (from: string, sha256: string) => {
    const target = storedPath(dir, sha256);
    await fs.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_FOLDER });
    await fs.rename(from, target);
  };
  return {
    async receive(source, maxBytes, isTruncated = () => false) {
      // The temporary file sits in the store, so that keeping it is one rename on the same file system.
      const received = await receiveInto(path.join(fileFolder(dir), 'tmp'), source, maxBytes, isTruncated);
      return {
        sha256: received.sha256,
        size: received.size,
        discard: received.discard,
        keep: () => keepAt(received.tempPath, received.sha256),
      };
    },
    async put(_trx, content) {
      const buffer = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const sha256 = createHash('sha256').update(buffer).digest('hex');
      const temp = path.join(fileFolder(dir), 'tmp', `${randomUUID()}.part`);
      await fs.mkdir(path.dirname(temp), { recursive: true, mode: PRIVATE_FOLDER });
      await fs.writeFile(temp, buffer, { mode: PRIVATE_FILE });
      await keepAt(temp, sha256);
      return { sha256, size: buffer.length };
    },
    async open(_db, sha256) {
      if (!SHA256.test(sha256)) return null;
      const file = storedPath(dir, sha256);
      try {
        const stat = await fs.stat(file);
        if (!stat.isFile()) return null;
        return { stream: createReadStream(file), size: stat.size };
      } catch {
        return null;
      }
    },
    async remove(_trx, sha256) {
      if (!SHA256.test(sha256)) return;
      await fs.rm(storedPath(dir, sha256), { force: true });
    },
  };
}

function databaseStore(tempDir: string): FileStore {
  /** Writes a file's row and chunks unless the content is kept already (a concurrent keep of the same content waits for the first). */
  const keepChunks = async (
    trx: Tx,
    sha256: string,
    size: number,
    chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  ) => {
    const added = await trx
      .insertInto('stored_file')
      .values({ sha256, size })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .returning('sha256')
      .executeTakeFirst();
    if (!added) return;
    let n = 0;
    for await (const data of chunks)
      await trx.insertInto('stored_file_chunk').values({ sha256, n: n++, data }).execute();
  };
  return {
    async receive(source, maxBytes, isTruncated = () => false) {
      const received = await receiveInto(tempDir, source, maxBytes, isTruncated);
      return {
        sha256: received.sha256,
        size: received.size,
        discard: received.discard,
        keep: (trx) =>
          keepChunks(
            trx,
            received.sha256,
            received.size,
            createReadStream(received.tempPath, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>,
          ),
      };
    },
    async put(trx, content) {
      const buffer = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const sha256 = createHash('sha256').update(buffer).digest('hex');
      const chunks = Array.from({ length: Math.ceil(buffer.length / CHUNK_BYTES) }, (_, i) =>
        buffer.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES),
      );
      await keepChunks(trx, sha256, buffer.length, chunks);
      return { sha256, size: buffer.length };
    },
    async open(db, sha256) {
      if (!SHA256.test(sha256)) return null;
      const file = await db.selectFrom('stored_file').select('size').where('sha256', '=', sha256).executeTakeFirst();
      if (!file) return null;
      // One chunk in memory at a time, read as the receiver takes them.
      async function* chunks(): AsyncGenerator<Buffer> {
        for (let n = 0; ; n++) {
          const chunk = await db
            .selectFrom('stored_file_chunk')
            .select('data')
            .where('sha256', '=', sha256)
            .where('n', '=', n)
            .executeTakeFirst();
          if (!chunk) return;
          yield chunk.data;
        }
      }
      return { stream: Readable.from(chunks(), { objectMode: false }), size: Number(file.size) };
    },
    async remove(trx, sha256) {
      if (!SHA256.test(sha256)) return;
      await trx.deleteFrom('stored_file').where('sha256', '=', sha256).execute();
    },
  };
}

/**
 * Copies the files of `hashes` from one store into another where they are missing (restoring a
 * backup into the other kind of store, or switching FILE_STORE): each through the target's own
 * receive and keep, so its hash is checked again on the way. Answers how many were copied; a hash
 * neither store holds is named in the error.
 */
export async function copyStoredFiles(
  db: Db,
  from: FileStore,
  to: FileStore,
  hashes: readonly string[],
): Promise<number> {
  let copied = 0;
  const missing: string[] = [];
  for (const sha256 of hashes) {
    const present = await to.open(db, sha256);
    if (present) {
      present.stream.destroy();
      continue;
    }
    const source = await from.open(db, sha256);
    if (!source) {
      missing.push(sha256);
      continue;
    }
    const received = await to.receive(source.stream, Number.MAX_SAFE_INTEGER);
    try {
      if (received.sha256 !== sha256)
        throw new Error(
          `The stored file ${sha256} does not hold the content its name says (it hashes to ${received.sha256}).`,
        );
      await db.transaction().execute((trx) => received.keep(trx));
      copied += 1;
    } finally {
      await received.discard();
    }
  }
  if (missing.length > 0)
    throw new Error(`${missing.length} package file(s) are in neither store: ${missing.join(', ')}`);
  return copied;
}
