import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../src/db/demo-ids.js';
import { CHUNK_BYTES, copyStoredFiles, fileStoreOf, fileStoreOfKind, storedPath } from '../src/files/content-store.js';
import { createTestPortal, openSecondInstance, type TestPortal } from './harness.js';
import { filesUnder, multipart } from './upload-helpers.js';

/*
 * Where package files live (FILE_STORE): a folder every instance shares (FILE_STORE_DIR), or the
 * database, so that instances with nothing but PostgreSQL in common serve each other's uploads.
 */

type Version = { packageVersionId: string; version: string; fileSha256: string; fileSize: number };

const sha256Of = (content: Buffer) => createHash('sha256').update(content).digest('hex');

async function createPackage(portal: TestPortal): Promise<string> {
  const response = await portal.as('operator', {
    method: 'PUT',
    url: '/v1/packages',
    payload: {
      name: `Store ${randomUUID().slice(0, 6)}`,
      packageTypeId: 3,
      tenantId: DEMO.contoso,
      operatingSystemRidsId: [4],
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ packageId: string }>().packageId;
}

async function upload(portal: TestPortal, packageId: string, version: string, content: Buffer) {
  return portal.as('operator', {
    method: 'POST',
    url: '/v1/packages/upload',
    ...multipart({ packageId, version, label: version }, { fileName: `build-${version}.zip`, content }),
  });
}

async function tempDir(name: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `cfs-${name}-`));
}

/** A stored file as a second instance on the same database, with a DATA_DIR of its own and `env`, reads it. */
async function readThroughAnotherInstance(
  portal: TestPortal,
  env: Record<string, string>,
  sha256: string,
): Promise<{ size: number; content: Buffer } | null> {
  const dataDir = await tempDir('other-instance');
  const other = await openSecondInstance(portal, { ...env, DATA_DIR: dataDir });
  try {
    const stored = await fileStoreOf(other.runtime.config).open(other.runtime.db, sha256);
    return stored && { size: stored.size, content: await buffer(stored.stream) };
  } finally {
    await other.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

describe('the database file store (FILE_STORE=database)', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await createTestPortal({ FILE_STORE: 'database' });
  });
  afterAll(async () => {
    await portal?.close();
  });

  const chunksOf = async (sha256: string) =>
    (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM stored_file_chunk WHERE sha256 = ${sha256}`.execute(
        portal.db,
      )
    ).rows[0]?.n ?? 0;

  it('keeps an upload in chunks in the database, and another instance with a DATA_DIR of its own reads it back byte for byte', async () => {
    const packageId = await createPackage(portal);
    const content = randomBytes(Math.floor(2.5 * CHUNK_BYTES));
    const response = await upload(portal, packageId, '1.0.0', content);
    expect(response.statusCode, response.body).toBe(200);
    const version = response.json<Version>();
    expect(version.fileSha256).toBe(sha256Of(content));
    expect(await chunksOf(version.fileSha256)).toBe(3);
    // Nothing of it on this instance's disk: the temporary upload is gone and no folder store was made.
    expect((await filesUnder(portal.config.dataDir)).filter((file) => !file.startsWith('keys/'))).toEqual([]);

    const stored = await readThroughAnotherInstance(portal, { FILE_STORE: 'database' }, version.fileSha256);
    expect(stored?.size).toBe(content.length);
    expect(stored?.content.equals(content)).toBe(true);
  });

  it('keeps nothing of an upload whose version is refused: the file is written in the transaction that saves the version', async () => {
    const packageId = await createPackage(portal);
    expect((await upload(portal, packageId, '1.0.0', randomBytes(100))).statusCode).toBe(200);
    const refusedContent = randomBytes(CHUNK_BYTES + 10);
    const refused = await upload(portal, packageId, '1.0.0', refusedContent);
    expect(refused.statusCode).toBe(400);
    expect(await fileStoreOf(portal.config).open(portal.db, sha256Of(refusedContent))).toBeNull();
    expect(await chunksOf(sha256Of(refusedContent))).toBe(0);
  });

  it('removes a deleted version’s file with its chunks, and keeps content another version still names', async () => {
    const packageId = await createPackage(portal);
    const shared = randomBytes(5000);
    const only = randomBytes(5000);
    const first = (await upload(portal, packageId, '1.0.0', only)).json<Version>();
    const second = (await upload(portal, packageId, '1.1.0', shared)).json<Version>();
    const otherPackage = await createPackage(portal);
    expect((await upload(portal, otherPackage, '1.0.0', shared)).statusCode).toBe(200);
    expect(
      (
        await portal.as('operator', {
          method: 'DELETE',
          url: `/v1/packages/${packageId}/versions/${first.packageVersionId}`,
        })
      ).statusCode,
    ).toBe(204);
    expect(await fileStoreOf(portal.config).open(portal.db, first.fileSha256)).toBeNull();
    expect(await chunksOf(first.fileSha256)).toBe(0);
    expect((await portal.as('operator', { method: 'DELETE', url: `/v1/packages/${packageId}` })).statusCode).toBe(204);
    const kept = await fileStoreOf(portal.config).open(portal.db, second.fileSha256);
    expect((await buffer(kept!.stream)).equals(shared)).toBe(true);
  });
});

describe('the folder file store on a shared path (FILE_STORE_DIR)', () => {
  let portal: TestPortal;
  let shared: string;
  beforeAll(async () => {
    shared = await tempDir('shared-files');
    portal = await createTestPortal({ FILE_STORE_DIR: shared });
  });
  afterAll(async () => {
    await portal?.close();
    await fs.rm(shared, { recursive: true, force: true });
  });

  it('keeps files in FILE_STORE_DIR, not in DATA_DIR, where an instance with another DATA_DIR reads them', async () => {
    const packageId = await createPackage(portal);
    const content = randomBytes(20_000);
    const version = (await upload(portal, packageId, '1.0.0', content)).json<Version>();
    expect(await fs.readFile(storedPath(shared, version.fileSha256))).toEqual(content);
    expect((await filesUnder(portal.config.dataDir)).filter((file) => file.startsWith('files/'))).toEqual([]);

    const stored = await readThroughAnotherInstance(portal, { FILE_STORE_DIR: shared }, version.fileSha256);
    expect(stored?.content.equals(content)).toBe(true);
  });

  it('copies every file into the database store and back (npm run files:copy), each once, checked by its hash', async () => {
    const packageId = await createPackage(portal);
    const content = randomBytes(CHUNK_BYTES + 1);
    expect((await upload(portal, packageId, '2.0.0', content)).statusCode).toBe(200);
    const hashes = (await portal.db.selectFrom('package_version').select('file_sha256').distinct().execute()).map(
      (row) => row.file_sha256,
    );
    expect(hashes.length).toBeGreaterThan(3);
    const folder = fileStoreOf(portal.config);
    const database = fileStoreOfKind(portal.config, { kind: 'database' });
    expect(await copyStoredFiles(portal.db, folder, database, hashes)).toBe(hashes.length);
    expect(await copyStoredFiles(portal.db, folder, database, hashes)).toBe(0);
    for (const sha256 of hashes) {
      const copied = await database.open(portal.db, sha256);
      expect(sha256Of(await buffer(copied!.stream))).toBe(sha256);
    }
    const back = await tempDir('files-back');
    try {
      const folderAgain = fileStoreOfKind(portal.config, { kind: 'folder', dir: back });
      expect(await copyStoredFiles(portal.db, database, folderAgain, hashes)).toBe(hashes.length);
      expect(await fs.readFile(storedPath(back, sha256Of(content)))).toEqual(content);
      // A file that does not hold what its name says is refused, not copied.
      const forged = '0'.repeat(64);
      await fs.mkdir(path.dirname(storedPath(back, forged)), { recursive: true });
      await fs.writeFile(storedPath(back, forged), 'not what the name says');
      await expect(copyStoredFiles(portal.db, folderAgain, database, [forged])).rejects.toThrow(
        /does not hold the content its name says/,
      );
      await expect(copyStoredFiles(portal.db, folderAgain, database, ['1'.repeat(64)])).rejects.toThrow(
        /in neither store/,
      );
    } finally {
      await fs.rm(back, { recursive: true, force: true });
    }
  });
});

/** The permission bits of every folder and file below `root`, and of `root` itself, relative to it. */
async function modesUnder(root: string): Promise<Record<string, string>> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  const modes: Record<string, string> = { '.': ((await fs.stat(root)).mode & 0o777).toString(8) };
  for (const entry of entries) {
    const file = path.join(entry.parentPath, entry.name);
    modes[path.relative(root, file)] = ((await fs.stat(file)).mode & 0o777).toString(8);
  }
  return modes;
}

describe('package files are readable by the portal’s user only, like its keys', () => {
  it('keeps uploaded and seeded files 0600 in folders 0700', async () => {
    const portal = await createTestPortal();
    try {
      const packageId = await createPackage(portal);
      const version = (await upload(portal, packageId, '1.0.0', randomBytes(1000))).json<Version>();
      const root = path.join(portal.config.dataDir, 'files');
      const modes = await modesUnder(root);
      expect(Object.keys(modes)).toContain(path.relative(root, storedPath(root, version.fileSha256)));
      expect(Object.keys(modes)).toContain(path.join('sha256', 'tmp'));
      for (const [file, mode] of Object.entries(modes)) {
        const isFolder = (await fs.stat(path.join(root, file))).isDirectory();
        expect(mode, file).toBe(isFolder ? '700' : '600');
      }
    } finally {
      await portal.close();
    }
  });

  it('narrows the folders and files an earlier version left readable to everyone when the portal starts', async () => {
    const dataDir = await tempDir('open-files');
    const content = Buffer.from('echo left readable');
    const stored = storedPath(path.join(dataDir, 'files'), sha256Of(content));
    await fs.mkdir(path.dirname(stored), { recursive: true, mode: 0o755 });
    await fs.mkdir(path.join(dataDir, 'files', 'sha256', 'tmp'), { mode: 0o755 });
    await fs.writeFile(stored, content, { mode: 0o644 });
    await fs.writeFile(path.join(dataDir, 'files', 'sha256', 'tmp', 'left.part'), 'half', { mode: 0o644 });
    for (const folder of ['files', 'files/sha256', path.relative(dataDir, path.dirname(stored)), 'files/sha256/tmp'])
      await fs.chmod(path.join(dataDir, folder), 0o755);
    const portal = await createTestPortal({ DATA_DIR: dataDir });
    try {
      const modes = await modesUnder(path.join(dataDir, 'files'));
      expect(modes[path.relative(path.join(dataDir, 'files'), stored)]).toBe('600');
      expect(modes[path.join('sha256', 'tmp', 'left.part')]).toBe('600');
      for (const folder of [
        '.',
        'sha256',
        path.join('sha256', 'tmp'),
        path.relative(path.join(dataDir, 'files'), path.dirname(stored)),
      ])
        expect(modes[folder], folder).toBe('700');
      expect(await fs.readFile(stored)).toEqual(content);
    } finally {
      await portal.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
