import { loadConfig } from '../config.js';
import { commandWithoutArguments, runCommand } from './command.js';
import { loadSecretBox } from '../crypto/secret-box.js';
import { openDatabase } from '../db/database.js';
import { reencryptSecrets } from '../areas/tenants/secrets.js';
import { resealSignInRecords } from '../auth/embedded/adapter.js';

/**
 * `npm run secrets:rotate`: re-encrypts every stored secret (tenant secrets, and the embedded
 * identity provider's sign-in records) with SECRETS_KEY, opening old values with
 * SECRETS_PREVIOUS_KEYS. On the embedded database it works beside a running portal too.
 */
async function main(): Promise<void> {
  commandWithoutArguments(
    'usage: npm run secrets:rotate   (SECRETS_KEY: the new key; SECRETS_PREVIOUS_KEYS: the keys it replaces)',
  );
  const config = loadConfig(process.env);
  const box = await loadSecretBox(config.dataDir, config.secrets);
  const { db, close } = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const count = await reencryptSecrets(db, box);
    const records = await resealSignInRecords(db, box);
    console.log(`Re-encrypted ${count} secret version(s) and ${records} sign-in record(s) with key ${box.keyId}.`);
  } finally {
    await close();
  }
}

runCommand(main);
