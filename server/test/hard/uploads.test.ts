import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mintAccessToken, openTokenMinter } from '../../src/auth/embedded/mint.js';
import { loadConfig } from '../../src/config.js';
import { DEMO } from '../../src/db/demo-ids.js';
import { reportFigures } from '../figures.js';
import { freePort } from '../processes.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';
import { filesUnder, multipart, multipartStream } from '../upload-helpers.js';

/**
 * Uploads (issue 15): hostile package uploads against the portal running as its own process
 * (`server/src/main.ts`), over HTTP — bodies over the size cap (PACKAGE_UPLOAD_MAX_MB, 200 by
 * default) streamed so this test never holds them, wrong content types and broken multipart,
 * names that climb out of the store, another tenant's package, thousands of parts. None may be
 * accepted as sent (a name is kept only as a bare base name), nothing may be written outside the
 * store (DATA_DIR and the process's own TMPDIR are walked before and after), and the process's
 * peak memory (VmHWM) is reported. A zip bomb is stored as it came: the portal never opens a
 * package's file, so it is kept byte for byte and nothing inflates it.
 */

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const MB = 1024 * 1024;

let database: TestDatabase;
let dataDir: string;
let tempDir: string;
let child: ChildProcess;
let base: string;
let limitBytes: number;
const tokens = new Map<string, string>();
let before: { data: string[]; temp: string[] };
let startMemoryMb = 0;

interface Attempt {
  name: string;
  status: number;
  /** The hostile part was taken as sent (a 2xx that kept it). */
  accepted: boolean;
}
const attempts: Attempt[] = [];

/** The child's peak resident memory so far (VmHWM), in MB. */
async function peakMemoryMb(): Promise<number> {
  const status = await fs.readFile(`/proc/${String(child.pid)}/status`, 'utf8');
  const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error('No VmHWM for the portal process');
  return Math.round((kb / 1024) * 10) / 10;
}

/** One request to the portal process; the body is sent as a stream when it is one (chunked when no length is given). */
function send(options: {
  method: string;
  path: string;
  user?: string;
  headers?: Record<string, string>;
  body?: Buffer | string | Readable;
  length?: number;
}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.user) headers.authorization = `Bearer ${tokens.get(options.user) ?? ''}`;
    if (options.length !== undefined) headers['content-length'] = String(options.length);
    let answered = false;
    const request = http.request(`${base}${options.path}`, { method: options.method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        answered = true;
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    // The portal may answer (413) and close before a large body is all sent: the answer is what counts.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const { body } = options;
    if (body instanceof Readable) {
      body.on('error', () => undefined);
      body.pipe(request);
    } else request.end(body);
  });
}

type Version = { packageVersionId: string; fileName: string; fileSha256: string; fileSize: number };

/** Records an attempt: a 2xx is an acceptance unless `keptSafely` says what was kept is harmless. */
function record(
  name: string,
  answer: { status: number; body: string },
  keptSafely?: (version: Version) => boolean,
): void {
  const ok = answer.status >= 200 && answer.status < 300;
  const accepted = ok && !(keptSafely?.(JSON.parse(answer.body) as Version) ?? false);
  attempts.push({ name, status: answer.status, accepted });
  expect(answer.status, `${name}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
}

async function createPackage(user: string, tenantId: string | null): Promise<string> {
  const answer = await send({
    method: 'PUT',
    path: '/v1/packages',
    user,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Package ${randomUUID().slice(0, 6)}`,
      packageTypeId: 3,
      tenantId,
      operatingSystemRidsId: [4],
    }),
  });
  expect(answer.status, answer.body).toBe(200);
  return (JSON.parse(answer.body) as { packageId: string }).packageId;
}

let versionCount = 0;
const nextVersion = () => `1.0.${String((versionCount += 1))}`;

/** Every file under DATA_DIR and the portal's TMPDIR. */
const snapshot = async () => ({ data: await filesUnder(dataDir), temp: await filesUnder(tempDir) });

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-uploads-data-'));
  tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-uploads-tmp-'));
  database = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${String(port)}`;
  const env = {
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DEMO_SEED: 'true',
    DEMO_AGENT: 'false',
    DATABASE_URL: database.url,
    TMPDIR: tempDir,
  };
  // The signing and secrets keys are made here first so that tokens minted by this test are the portal's.
  const config = loadConfig(env);
  limitBytes = config.packageUploadMaxBytes;
  const minter = await openTokenMinter(config);
  try {
    for (const user of ['operator', 'operator2', 'admin']) tokens.set(user, await mintAccessToken(minter, user));
  } finally {
    await minter.close();
  }
  child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(root, 'server', 'src', 'main.ts')],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = await send({ method: 'GET', path: '/healthz' }).catch(() => ({ status: 0, body: '' }));
    if (up.status === 200) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('The portal process did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  before = await snapshot();
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await database?.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
  await fs.rm(tempDir, { recursive: true, force: true });
});

describe('hostile uploads to the portal process', () => {
  let contosoPackage: string;

  beforeAll(async () => {
    contosoPackage = await createPackage('operator', DEMO.contoso);
    // A small ordinary upload first, so the peak below is the uploads' and not the first request's.
    const warm = multipart(
      { packageId: contosoPackage, version: nextVersion(), label: 'Warm-up' },
      { fileName: 'warm.sh', content: 'echo warm' },
    );
    expect(
      (
        await send({
          method: 'POST',
          path: '/v1/packages/upload',
          user: 'operator',
          headers: warm.headers,
          body: warm.payload,
        })
      ).status,
    ).toBe(200);
    startMemoryMb = await peakMemoryMb();
  });

  test('bodies over the size cap are refused with 413, one byte over, a gigabyte without a length, and three at once', async () => {
    const over = (size: number) =>
      multipartStream(
        { packageId: contosoPackage, version: nextVersion(), label: 'Too big' },
        { fileName: 'big.bin', size },
      );
    const oneByte = over(limitBytes + 1);
    record(
      'one byte over the cap',
      await send({
        method: 'POST',
        path: '/v1/packages/upload',
        user: 'operator',
        headers: oneByte.headers,
        body: oneByte.body,
        length: oneByte.length,
      }),
    );
    const gigabyte = over(1024 * MB);
    record(
      'a gigabyte, chunked',
      await send({
        method: 'POST',
        path: '/v1/packages/upload',
        user: 'operator',
        headers: gigabyte.headers,
        body: gigabyte.body,
      }),
    );
    const three = [1, 2, 3].map(() => over(limitBytes + 50 * MB));
    const answers = await Promise.all(
      three.map((upload) =>
        send({
          method: 'POST',
          path: '/v1/packages/upload',
          user: 'operator',
          headers: upload.headers,
          body: upload.body,
          length: upload.length,
        }),
      ),
    );
    for (const [index, answer] of answers.entries()) record(`over the cap at once (${String(index + 1)})`, answer);
    expect(attempts.slice(-5).map((attempt) => attempt.status)).toEqual([413, 413, 413, 413, 413]);
  });

  test('wrong content types and broken multipart bodies are refused', async () => {
    const upload = (name: string, headers: Record<string, string>, body: Buffer | string) =>
      send({ method: 'POST', path: '/v1/packages/upload', user: 'operator', headers, body }).then((answer) =>
        record(name, answer),
      );
    const fields = { packageId: contosoPackage, version: nextVersion(), label: 'Wrong' };
    await upload(
      'JSON instead of multipart',
      { 'content-type': 'application/json' },
      JSON.stringify({ ...fields, file: 'ZWNobyBoaQ==' }),
    );
    await upload('plain text', { 'content-type': 'text/plain' }, 'echo hi');
    await upload('a raw file', { 'content-type': 'application/octet-stream' }, Buffer.from('MZ\x90\x00raw executable'));
    await upload(
      'url-encoded form',
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams(fields).toString(),
    );
    const good = multipart(fields, { fileName: 'a.sh', content: 'echo hi' });
    await upload('multipart without a boundary', { 'content-type': 'multipart/form-data' }, good.payload);
    await upload(
      'multipart with another boundary',
      { 'content-type': 'multipart/form-data; boundary=not-the-one' },
      good.payload,
    );
    await upload('multipart cut off before its end', good.headers, good.payload.subarray(0, good.payload.length - 60));
    await upload(
      'multipart/mixed',
      { 'content-type': good.headers['content-type'].replace('form-data', 'mixed') },
      good.payload,
    );
    const noFile = multipart(fields);
    await upload('no file', noFile.headers, noFile.payload);
    const notAFile = multipart({ ...fields, 'file-0': 'echo not a file' });
    await upload('the file as a field', notAFile.headers, notAFile.payload);
    const empty = multipart(fields, { fileName: 'empty.sh', content: '' });
    await upload('an empty file', empty.headers, empty.payload);
    const badVersion = multipart({ ...fields, version: '../../1.0.0' }, { fileName: 'a.sh', content: 'echo' });
    await upload('a version that is a path', badVersion.headers, badVersion.payload);
  });

  test('names that climb out of the store are kept as a bare base name only, and nothing is written where they point', async () => {
    const names = [
      '../../x',
      '..\\..\\x',
      '/tmp/cfs-absolute-x',
      '../../../../../../etc/cfs-x',
      'C:\\Windows\\System32\\cfs-x.dll',
      '\\\\server\\share\\cfs-x',
      'x/../../../cfs-y',
      '..',
      '.',
      '%2e%2e%2f%2e%2e%2fcfs-z',
      'a\u0000b.sh',
      'files/sha256/00/cfs-x',
      `${'../'.repeat(200)}cfs-deep`,
      '~/.ssh/authorized_keys',
      '/etc/passwd',
      'file:///etc/cfs-x',
      'cfs-x\\..\\..\\..\\cfs-w',
    ];
    const safe = (version: Version) =>
      !/[\\/\0]/.test(version.fileName) && version.fileName !== '..' && version.fileName !== '.';
    for (const fileName of names) {
      const upload = multipart(
        { packageId: contosoPackage, version: nextVersion(), label: 'Traversal' },
        { fileName, content: `traversal ${fileName}` },
      );
      record(
        `file name ${JSON.stringify(fileName.slice(0, 40))}`,
        await send({
          method: 'POST',
          path: '/v1/packages/upload',
          user: 'operator',
          headers: upload.headers,
          body: upload.payload,
        }),
        safe,
      );
    }
    // RFC 5987's filename* spelling of a path.
    const boundary = `----cfs${randomUUID()}`;
    const encoded = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="packageId"\r\n\r\n${contosoPackage}\r\n--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n${nextVersion()}\r\n--${boundary}\r\nContent-Disposition: form-data; name="label"\r\n\r\nStar\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file-0"; filename*=UTF-8''..%2F..%2Fcfs-star\r\n\r\nstar\r\n--${boundary}--\r\n`,
    );
    record(
      'filename* with a path',
      await send({
        method: 'POST',
        path: '/v1/packages/upload',
        user: 'operator',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: encoded,
      }),
      safe,
    );
    for (const file of [
      '/tmp/cfs-absolute-x',
      '/etc/cfs-x',
      path.resolve(dataDir, '..', 'x'),
      path.resolve(dataDir, 'x'),
      path.resolve(dataDir, '..', '..', 'cfs-y'),
      path.resolve(dataDir, 'files', 'sha256', '00', 'cfs-x'),
    ]) {
      await expect(fs.stat(file), file).rejects.toThrow();
    }
  });

  test("another tenant's package, a shared one, one that does not exist and a tenant named beside it are refused", async () => {
    const fabrikamPackage = await createPackage('operator2', DEMO.fabrikam);
    const sharedPackage = await createPackage('admin', null);
    const upload = async (name: string, fields: Record<string, string>) => {
      const body = multipart(
        { version: nextVersion(), label: 'Elsewhere', ...fields },
        { fileName: 'a.sh', content: `echo ${name}` },
      );
      record(
        name,
        await send({
          method: 'POST',
          path: '/v1/packages/upload',
          user: 'operator',
          headers: body.headers,
          body: body.payload,
        }),
      );
    };
    await upload("another tenant's package", { packageId: fabrikamPackage });
    await upload("another tenant's package, naming that tenant", {
      packageId: fabrikamPackage,
      tenantId: DEMO.fabrikam,
    });
    await upload('a shared package', { packageId: sharedPackage });
    await upload('a package that does not exist', { packageId: randomUUID() });
    await upload('a package id that is a path', { packageId: '../../packages' });
    await upload('its own package under another tenant', { packageId: contosoPackage, tenantId: DEMO.fabrikam });
    const noToken = multipart(
      { packageId: contosoPackage, version: nextVersion(), label: 'Anonymous' },
      { fileName: 'a.sh', content: 'echo' },
    );
    record(
      'no token',
      await send({ method: 'POST', path: '/v1/packages/upload', headers: noToken.headers, body: noToken.payload }),
    );
  });

  test('thousands of parts, fields or files are refused, and an oversized field is not kept cut short', async () => {
    const boundary = `----cfs${randomUUID()}`;
    const part = (name: string, value: string, fileName?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${fileName ? `; filename="${fileName}"` : ''}\r\n\r\n${value}\r\n`;
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const head = part('packageId', contosoPackage) + part('version', nextVersion()) + part('label', 'Many');
    const upload = async (name: string, body: string) =>
      record(
        name,
        await send({ method: 'POST', path: '/v1/packages/upload', user: 'operator', headers, body: Buffer.from(body) }),
      );
    await upload(
      '5,000 fields',
      head +
        Array.from({ length: 5000 }, (_, index) => part(`f${String(index)}`, 'x')).join('') +
        part('file-0', 'echo', 'a.sh') +
        `--${boundary}--\r\n`,
    );
    await upload(
      '5,000 files',
      head +
        Array.from({ length: 5000 }, (_, index) => part(`file-${String(index)}`, 'echo', `f${String(index)}.sh`)).join(
          '',
        ) +
        `--${boundary}--\r\n`,
    );
    await upload(
      '5,000 parts of one name',
      head +
        Array.from({ length: 5000 }, () => part('label', 'again')).join('') +
        part('file-0', 'echo', 'a.sh') +
        `--${boundary}--\r\n`,
    );
    await upload(
      'a label of a megabyte',
      part('packageId', contosoPackage) +
        part('version', nextVersion()) +
        part('label', 'L'.repeat(MB)) +
        part('file-0', 'echo', 'a.sh') +
        `--${boundary}--\r\n`,
    );
    // A million tiny parts, streamed: the reader must stop at its limit, not hold them.
    async function* millionParts() {
      yield Buffer.from(head);
      const batch = Buffer.from(Array.from({ length: 1000 }, (_, index) => part(`p${String(index)}`, 'x')).join(''));
      for (let sent = 0; sent < 1000; sent++) yield batch;
      yield Buffer.from(`--${boundary}--\r\n`);
    }
    record(
      'a million parts, streamed',
      await send({
        method: 'POST',
        path: '/v1/packages/upload',
        user: 'operator',
        headers,
        body: Readable.from(millionParts()),
      }),
    );
  });

  test('a zip bomb is kept as it came: stored byte for byte, never inflated', async () => {
    const inflated = 1024 * MB;
    const zip = await zipOfZeros(inflated);
    expect(zip.length).toBeLessThan(5 * MB);
    const body = multipart(
      { packageId: contosoPackage, version: nextVersion(), label: 'Bomb' },
      { fileName: 'bomb.zip', content: zip },
    );
    const answer = await send({
      method: 'POST',
      path: '/v1/packages/upload',
      user: 'operator',
      headers: body.headers,
      body: body.payload,
    });
    expect(answer.status, answer.body).toBe(200);
    const version = JSON.parse(answer.body) as Version;
    expect(version.fileSize).toBe(zip.length);
    expect(version.fileSha256).toBe(createHash('sha256').update(zip).digest('hex'));
    const stored = await fs.stat(
      path.join(dataDir, 'files', 'sha256', version.fileSha256.slice(0, 2), version.fileSha256),
    );
    expect(stored.size).toBe(zip.length);
  });

  test('nothing outside the store, memory bounded', async () => {
    const after = await snapshot();
    const store = /^files\/sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/;
    const outside = [
      ...after.data.filter((file) => !before.data.includes(file) && !store.test(file)),
      ...after.temp.filter((file) => !before.temp.includes(file)),
    ];
    const peakMb = await peakMemoryMb();
    const accepted = attempts.filter((attempt) => attempt.accepted);
    reportFigures('uploads', {
      attempts: attempts.length,
      accepted: accepted.length,
      'files outside the store': outside.length,
      'peak memory MB': peakMb,
      'memory at the start MB': startMemoryMb,
    });
    expect(accepted).toEqual([]);
    expect(outside).toEqual([]);
    expect(attempts.length).toBeGreaterThanOrEqual(40);
    // Well over two gigabytes went past the portal: what it holds must not grow with them.
    expect(
      peakMb - startMemoryMb,
      `peak ${String(peakMb)} MB after ${String(startMemoryMb)} MB at the start`,
    ).toBeLessThan(150);
  });
});

/** A zip of one file of `size` zero bytes, deflated (about a thousandth of its size), made without holding the file. */
async function zipOfZeros(size: number): Promise<Buffer> {
  const zeros = Buffer.alloc(MB);
  let crc = 0;
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  for (let written = 0; written < size; written += zeros.length) {
    crc = zlib.crc32(zeros, crc);
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  const data = Buffer.concat(compressed);
  const name = Buffer.from('zeros.bin');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}
