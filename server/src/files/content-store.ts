import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FILE_STORE_FOLDER } from '@cfs/contracts/fleet';
import type { Config } from '../config.js';

/**
 * The content-addressed file store: a file is kept at
 * `DATA_DIR/files/sha256/<first two hex digits>/<64 hex digits>`, named only by its SHA-256, so
 * the name a file was uploaded under never becomes a path (no traversal, however it is spelled)
 * and the same content is kept once. Every instance of the portal reads the same DATA_DIR.
 */
const SHA256 = /^[0-9a-f]{64}$/;

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${String(maxBytes)} bytes.`);
    this.name = 'FileTooLargeError';
  }
}

function storeRoot(dataDir: string): string {
  return path.join(dataDir, ...FILE_STORE_FOLDER.split('/'));
}

/** Where a hash's file lives; anything but 64 lower-case hex digits is refused before a path is built. */
export function storedPath(dataDir: string, sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error('Not a SHA-256');
  return path.join(storeRoot(dataDir), sha256.slice(0, 2), sha256);
}

/** A file received into the store's temporary folder, hashed, not yet kept. */
export interface ReceivedFile {
  sha256: string;
  size: number;
  /** Moves the file to its content address (a file already there with the same content is kept as it is). */
  keep(): Promise<void>;
  /** Removes the temporary file; safe to call after `keep` or twice. */
  discard(): Promise<void>;
}

/**
 * Streams `source` into a temporary file inside the store while hashing it. Over `maxBytes` the
 * stream is stopped, the temporary file removed and FileTooLargeError thrown. The temporary file
 * sits in the store so that keeping it is one rename on the same file system.
 */
export async function receiveFile(dataDir: string, source: Readable, maxBytes: number, isTruncated: () => boolean = () => false): Promise<ReceivedFile> {
  const tempDir = path.join(storeRoot(dataDir), 'tmp');
  await fs.mkdir(tempDir, { recursive: true });
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
    await pipeline(source, meter, createWriteStream(tempPath, { flags: 'wx' }));
    // The multipart reader stops at its own limit without an error: it only marks the file truncated.
    if (isTruncated()) throw new FileTooLargeError(maxBytes);
  } catch (error) {
    await discard();
    // Drain what the client still sends, so the answer reaches it.
    source.resume();
    throw error;
  }
  const sha256 = hash.digest('hex');
  return {
    sha256,
    size,
    discard,
    async keep() {
      const target = storedPath(dataDir, sha256);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(tempPath, target);
    },
  };
}

/** Keeps content given in full (the demo seed's small scripts). */
export async function storeContent(dataDir: string, content: string | Buffer): Promise<{ sha256: string; size: number }> {
  const buffer = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const sha256 = createHash('sha256').update(buffer).digest('hex');
  const target = storedPath(dataDir, sha256);
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomUUID()}.part`;
  await fs.writeFile(temp, buffer);
  await fs.rename(temp, target);
  return { sha256, size: buffer.length };
}

/** The stored file of a hash as a readable stream, or null when it is not there (or the hash is malformed). */
export async function openStored(config: Pick<Config, 'dataDir'>, sha256: string): Promise<{ stream: Readable; size: number } | null> {
  if (!SHA256.test(sha256)) return null;
  const file = storedPath(config.dataDir, sha256);
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return null;
    return { stream: createReadStream(file), size: stat.size };
  } catch {
    return null;
  }
}

/** Removes a hash's file, when no row names it any more (the caller checks). */
export async function removeStored(dataDir: string, sha256: string): Promise<void> {
  if (!SHA256.test(sha256)) return;
  await fs.rm(storedPath(dataDir, sha256), { force: true });
}
