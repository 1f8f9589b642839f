import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { writeOnce } from '../../files/write-once.js';

export interface ProviderKeys {
  /** The private signing key (RS256) with its kid. */
  signing: JWK & { kid: string; alg: string };
  /** Keys that sign the provider's cookies. */
  cookieKeys: string[];
}

/**
 * The embedded identity provider's keys are generated once and kept under DATA_DIR/keys
 * (owner-only), so tokens and sessions survive restarts. Instances that share one PostgreSQL
 * must share this folder too.
 */
export async function loadOrCreateKeys(dataDir: string): Promise<ProviderKeys> {
  const file = path.join(dataDir, 'keys', 'identity-provider.json');
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as ProviderKeys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signing = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
  const keys: ProviderKeys = { signing, cookieKeys: [randomBytes(32).toString('base64url')] };
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // Another process starting at the same moment may have made its own first: then theirs holds.
  return JSON.parse(await writeOnce(file, JSON.stringify(keys))) as ProviderKeys;
}

/** The public half of the signing key, as a key set for token verification. */
export function publicKeySet(keys: ProviderKeys): { keys: JWK[] } {
  const { kty, n, e, kid, alg, use } = keys.signing;
  return { keys: [{ kty, n, e, kid, alg, use }] };
}
