import { commandArgument, commandConfig, runCommand } from './command.js';

/**
 * `npm run --silent token -- <user>`: prints an access token for a user of the embedded identity
 * provider, signed with the key under the same DATA_DIR the server uses. For scripts and tests.
 * The token names a sign-in recorded in the portal's database (the API refuses any other), so the
 * command opens it: DATABASE_URL, or the embedded server, shared with a portal running on it.
 */
async function main(): Promise<void> {
  const userName = commandArgument('usage: npm run --silent token -- <user name>');
  const config = commandConfig();
  if (!config.oidc.embedded)
    throw new Error('An external identity provider is configured (OIDC_AUTHORITY); ask it for a token.');
  // Loaded once the arguments are read: the provider's library warns on load, and `--help` says only its usage.
  const [{ openRuntime }, { mintAccessToken }] = await Promise.all([
    import('../runtime.js'),
    import('../auth/embedded/mint.js'),
  ]);
  const runtime = await openRuntime(config);
  try {
    const { keys, provider } = runtime;
    if (!keys || !provider) throw new Error('The embedded identity provider is not running in this configuration.');
    process.stdout.write(`${await mintAccessToken({ config, keys, provider }, userName)}\n`);
  } finally {
    await runtime.closeDatabase();
  }
}

runCommand(main);
