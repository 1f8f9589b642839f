import { loadConfig } from '../config.js';
import { commandArgument, runCommand } from './command.js';
import { openRuntime } from '../runtime.js';
import { createAdministrator, generatePassword } from '../auth/embedded/administrator.js';

/**
 * `npm run admin -- <user name>` (in the image: `node server/dist/cli/create-admin.js <user name>`):
 * makes a local administrator of the embedded identity provider, or gives an existing one a new
 * password. The password is ADMIN_PASSWORD when set, else generated and printed once.
 */
async function main(): Promise<void> {
  const userName = commandArgument('usage: npm run admin -- <user name>   (ADMIN_PASSWORD=… to choose the password)');
  const config = loadConfig(process.env);
  if (!config.oidc.embedded)
    throw new Error('An external identity provider is configured (OIDC_AUTHORITY): give the administrator role there.');
  // The runtime migrates and seeds the roles first, so this works on a new database too.
  const runtime = await openRuntime(config);
  try {
    const password = process.env.ADMIN_PASSWORD || generatePassword();
    const { created } = await createAdministrator(runtime.db, userName, password);
    console.log(`${created ? 'Created' : 'Updated'} the administrator ${userName}.`);
    if (!process.env.ADMIN_PASSWORD) console.log(`Password (shown once): ${password}`);
  } finally {
    await runtime.closeDatabase();
  }
}

runCommand(main);
