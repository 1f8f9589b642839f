import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { loadOrCreateKeys } from '../auth/embedded/keys.js';
import { mintAccessToken } from '../auth/embedded/mint.js';

/**
 * `npm run --silent token -- <user>`: prints an access token for a user of the embedded identity
 * provider, signed with the key under the same DATA_DIR the server uses. For scripts and tests.
 */
async function main(): Promise<void> {
  const userName = process.argv[2];
  if (!userName) {
    console.error('usage: npm run --silent token -- <user name>');
    process.exit(2);
  }
  const packageJson = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
  const config = loadConfig(process.env, packageJson.version);
  if (!config.oidc.embedded) throw new Error('An external identity provider is configured (OIDC_AUTHORITY); ask it for a token.');
  const keys = await loadOrCreateKeys(config.dataDir);
  process.stdout.write(`${await mintAccessToken(config, keys, userName)}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
