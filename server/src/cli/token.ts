import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { mintAccessToken } from '../auth/embedded/mint.js';
import { openRuntime } from '../runtime.js';

/**
 * `npm run --silent token -- <user>`: prints an access token for a user of the embedded identity
 * provider, read from the same DATA_DIR / DATABASE_URL the server uses. For scripts and tests.
 */
async function main(): Promise<void> {
  const userName = process.argv[2];
  if (!userName) {
    console.error('usage: npm run --silent token -- <user name>');
    process.exit(2);
  }
  const packageJson = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' }, packageJson.version);
  const runtime = await openRuntime(config);
  try {
    if (!runtime.keys) throw new Error('An external identity provider is configured (OIDC_AUTHORITY); ask it for a token.');
    process.stdout.write(`${await mintAccessToken(runtime.db, config, runtime.keys, userName)}\n`);
  } finally {
    await runtime.db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
