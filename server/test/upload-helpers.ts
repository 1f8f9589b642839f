import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

/** A multipart/form-data body as a browser sends one. */
export function multipart(
  fields: Record<string, string>,
  file?: { fileName: string; content: string | Buffer; field?: string },
) {
  const boundary = `----cfs${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file-0'}"; filename="${file.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    chunks.push(typeof file.content === 'string' ? Buffer.from(file.content) : file.content);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every file under a folder (DATA_DIR), relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * A multipart/form-data body made as it is sent: the fields, then one file of `size` bytes
 * (`fill` repeated) under `fileName`, so a test can send far more than it holds in memory.
 */
export function multipartStream(
  fields: Record<string, string>,
  file: { fileName: string; size: number; fill?: number; field?: string },
): { body: Readable; headers: Record<string, string>; length: number } {
  const boundary = `----cfs${randomUUID()}`;
  const head = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file-0'}"; filename="${file.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, file.fill ?? 0x41);
  async function* generate() {
    yield head;
    for (let sent = 0; sent < file.size; sent += chunk.length)
      yield chunk.subarray(0, Math.min(chunk.length, file.size - sent));
    yield tail;
  }
  return {
    body: Readable.from(generate(), { objectMode: false }),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    length: head.length + file.size + tail.length,
  };
}
