import { loadOrCreateKeys } from '../auth/embedded/keys.js';
import { mintAccessToken } from '../auth/embedded/mint.js';
import { commandArgument, commandConfig, runCommand } from './command.js';

/**
 * `npm run --silent token -- <user>`: prints an access token for a user of the embedded identity
 * provider, signed with the key under the same DATA_DIR the server uses. For scripts and tests.
 */
async function main(): Promise<void> {
  const userName = commandArgument('usage: npm run --silent token -- <user name>');
  const config = commandConfig();
  if (!config.oidc.embedded) throw new Error('An external identity provider is configured (OIDC_AUTHORITY); ask it for a token.');
  const keys = await loadOrCreateKeys(config.dataDir);
  process.stdout.write(`${await mintAccessToken(config, keys, userName)}\n`);
}

runCommand(main);
