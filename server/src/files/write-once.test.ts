import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadOrCreateKeys } from '../auth/embedded/keys.js';
import { loadSecretBox } from '../crypto/secret-box.js';
import { writeOnce } from './write-once.js';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await fs.rm(folder, { recursive: true, force: true });
});
async function dataDir(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-write-once-'));
  folders.push(folder);
  return folder;
}

// Several processes of one installation (api and worker instances) start together on a new
// DATA_DIR: each makes the keys it finds missing, and all must end with the same ones.
describe('the keys made on first start, by many starting at once', () => {
  test('the secrets key: every one gets the same key, none reads it half written', async () => {
    const folder = await dataDir();
    const boxes = await Promise.all(Array.from({ length: 40 }, () => loadSecretBox(folder, {})));
    const { keyId, ciphertext } = boxes[0]!.encrypt('a tenant secret');
    for (const box of boxes) expect(box.decrypt(keyId, ciphertext)).toBe('a tenant secret');
    expect((await fs.readdir(path.join(folder, 'keys'))).sort()).toEqual(['secrets.key']);
  });

  test("the identity provider's keys: every one gets the same signing key", async () => {
    const folder = await dataDir();
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateKeys(folder)));
    expect(new Set(keys.map((key) => key.signing.kid)).size).toBe(1);
    expect(await fs.readdir(path.join(folder, 'keys'))).toEqual(['identity-provider.json']);
  });
});

describe('writeOnce', () => {
  test('a reader finds the file whole or not at all, and a second writer gets the first content', async () => {
    const file = path.join(await dataDir(), 'big.json');
    const content = JSON.stringify({ key: 'x'.repeat(8 * 1024 * 1024) });
    const seen = new Set<number>();
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const text = await fs.readFile(file, 'utf8').catch(() => undefined);
        if (text !== undefined) seen.add(text.length);
      }
    })();
    expect(await writeOnce(file, content)).toBe(content);
    writing = false;
    await reader;
    expect([...seen].filter((length) => length !== content.length)).toEqual([]);
    expect(await writeOnce(file, 'another')).toBe(content);
    expect(await fs.readdir(path.dirname(file))).toEqual(['big.json']);
    if (process.platform !== 'win32') expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });
});
