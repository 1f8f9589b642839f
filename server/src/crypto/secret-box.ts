import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeOnce } from '../files/write-once.js';

/**
 * Encrypts values at rest (tenant secrets, SMTP passwords) with AES-256-GCM, an authenticated
 * cipher: a changed ciphertext fails to decrypt instead of yielding garbage. Each ciphertext
 * names its key by id, so after a rotation the previous keys still open old values until
 * `npm run secrets:rotate` has re-encrypted them with the current key.
 */
export interface SecretBox {
  readonly keyId: string;
  encrypt(plaintext: string): { keyId: string; ciphertext: string };
  decrypt(keyId: string, ciphertext: string): string;
  /**
   * A keyed digest of `text` (HMAC-SHA256 under a key derived from the current key for `purpose`),
   * base64url: the same on every instance that shares the key, and not to be recomputed by
   * anyone who knows `text` alone.
   */
  sign(purpose: string, text: string): string;
}

const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 16);

function parseKey(text: string, name: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes, base64-encoded (openssl rand -base64 32)`);
  return key;
}

export function createSecretBox(current: Buffer, previous: readonly Buffer[] = []): SecretBox {
  const keys = new Map([current, ...previous].map((key) => [keyIdOf(key), key]));
  const keyId = keyIdOf(current);
  const purposeKeys = new Map<string, Buffer>();
  return {
    keyId,
    sign(purpose, text) {
      let key = purposeKeys.get(purpose);
      if (!key) purposeKeys.set(purpose, (key = createHmac('sha256', current).update(`cfs:${purpose}`).digest()));
      return createHmac('sha256', key).update(text).digest('base64url');
    },
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return { keyId, ciphertext: [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.') };
    },
    decrypt(id, ciphertext) {
      const key = keys.get(id);
      if (!key) throw new Error(`The key ${id} that encrypted this value is not configured (SECRETS_PREVIOUS_KEYS)`);
      const [iv, tag, body] = ciphertext.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !tag || !body) throw new Error('Malformed ciphertext');
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The key comes from SECRETS_KEY; without it, one is generated once under DATA_DIR/keys
 * (owner-only). Instances sharing a database must share the key.
 */
export async function loadSecretBox(
  dataDir: string,
  env: { key?: string | undefined; previousKeys?: string | undefined },
): Promise<SecretBox> {
  const previous = (env.previousKeys ?? '')
    .split(',')
    .filter((text) => text.trim())
    .map((text) => parseKey(text, 'SECRETS_PREVIOUS_KEYS'));
  if (env.key) return createSecretBox(parseKey(env.key, 'SECRETS_KEY'), previous);
  const file = path.join(dataDir, 'keys', 'secrets.key');
  try {
    return createSecretBox(parseKey(await fs.readFile(file, 'utf8'), file), previous);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // Another process starting at the same moment may have made its own first: then theirs holds.
  return createSecretBox(parseKey(await writeOnce(file, randomBytes(32).toString('base64')), file), previous);
}
