import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeOnce } from '../files/write-once.js';

/**
 * The portal's word that a script may run on a device: an Ed25519 signature of the script's
 * version, file name and SHA-256 (`scriptSigningText`), which the agent checks against the public
 * key it pinned when it first heard from the portal. The key alone runs nothing: the agent also
 * needs the script's package in its own allow list (agent/src/scripts.ts).
 */
export interface ScriptSigner {
  /** The public key, SPKI PEM, as agents pin it. */
  readonly publicKey: string;
  /** The signature of `text`, base64. */
  sign(text: string): string;
}

export function createScriptSigner(privateKeyPem: string): ScriptSigner {
  const privateKey = createPrivateKey(privateKeyPem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('The script signing key must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  return {
    publicKey,
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64'),
  };
}

/** A new Ed25519 private key, PKCS #8 PEM. */
export function newScriptSigningKey(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * The key is generated once under DATA_DIR/keys (owner-only), as the identity provider's keys are;
 * instances sharing a database share the folder. A new key would make every agent refuse the
 * scripts it signs: agents keep the key they pinned.
 */
export async function loadScriptSigner(dataDir: string): Promise<ScriptSigner> {
  const file = path.join(dataDir, 'keys', 'script-signing.pem');
  try {
    return createScriptSigner(await fs.readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  return createScriptSigner(await writeOnce(file, newScriptSigningKey()));
}
