import type Provider from 'oidc-provider';
import type { Config } from './config.js';
import { connect, openDatabase, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { seed } from './db/seed.js';
import { fileStoreOf, makeFilesPrivate } from './files/content-store.js';
import { loadOrCreateKeys, publicKeySet, type ProviderKeys } from './auth/embedded/keys.js';
import { createEmbeddedProvider } from './auth/embedded/provider.js';
import { createTokenVerifier, type TokenVerifier } from './auth/verify.js';
import { loadSecretBox, type SecretBox } from './crypto/secret-box.js';
import { loadScriptSigner, type ScriptSigner } from './crypto/script-signer.js';
import { PrincipalCache } from './auth/principal-cache.js';
import { ChangeCounters } from './db/change-counters.js';
import { configureActionRunner } from './engines/actions/runner.js';
import { ReadRouting } from './db/read-routing.js';
import { DatabaseListener } from './db/listener.js';
import { databaseProblem, ensureDataDir } from './startup-problems.js';

export interface Runtime {
  config: Config;
  db: Db;
  /** The database's connection string (the embedded server's when DATABASE_URL is unset), for LISTEN. */
  databaseUrl: string;
  /** Where list, export, report and dashboard reads go: the read replica when one is configured. */
  reads: ReadRouting;
  /** The instance's one LISTEN connection, for whatever follows the database's announcements (db/listener.ts). */
  listener: DatabaseListener;
  /** Callers' principals per token, dropped when the database announces a change (auth/principal-cache.ts). */
  principals: PrincipalCache;
  /** The tables' change counters, read from the database a few times a second (db/change-counters.ts). */
  changes: ChangeCounters;
  /** Closes the database pool and stops the embedded database server, if this process started one. */
  closeDatabase(): Promise<void>;
  verifier: TokenVerifier;
  secretBox: SecretBox;
  scriptSigner: ScriptSigner;
  /** Present when the portal runs its embedded identity provider. */
  keys?: ProviderKeys;
  provider?: Provider;
}

/**
 * Opens the database (migrated and seeded), the identity provider's keys and the token
 * verifier: everything a server, a worker, a CLI or a test needs before it can serve.
 */
export async function openRuntime(config: Config, options: { log?: (message: string) => void } = {}): Promise<Runtime> {
  ensureDataDir(config.dataDir);
  const {
    db,
    url: databaseUrl,
    close: closePool,
  } = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    ...options,
  });
  const listener = new DatabaseListener();
  const principals = new PrincipalCache();
  principals.attach(listener);
  const changes = new ChangeCounters();
  const replica = config.databaseReadUrl
    ? connect(config.databaseReadUrl, undefined, config.statementTimeoutMs)
    : undefined;
  const reads = new ReadRouting(db, replica);
  const closeDatabase = async () => {
    await principals.close();
    await listener.close();
    await changes.close();
    await replica?.destroy();
    await closePool();
  };
  // Migrations and the seed may take longer than a request may: they run on a connection of their own without the timeout.
  const setup = connect(databaseUrl, 1);
  try {
    await migrateToLatest(setup);
    await makeFilesPrivate(config);
    await seed(setup, { demo: config.demoSeed, localUsers: config.oidc.embedded, files: fileStoreOf(config) });
  } catch (error) {
    await closeDatabase();
    // A database server named by DATABASE_URL that cannot be reached, or refuses the portal, is the
    // administrator's to fix: said as what to check.
    throw (config.databaseUrl ? databaseProblem(error, config.databaseUrl) : undefined) ?? error;
  } finally {
    await setup.destroy();
  }
  await listener.listen(databaseUrl, (message, error) => console.error(message, error ?? ''));
  await changes.watch(databaseUrl, (message, error) => console.error(message, error ?? ''));
  const secretBox = await loadSecretBox(config.dataDir, config.secrets);
  configureActionRunner({ secretBox, outboundAllow: config.outboundAllow });
  const scriptSigner = await loadScriptSigner(config.dataDir);
  const shared = {
    config,
    db,
    reads,
    databaseUrl,
    listener,
    principals,
    changes,
    closeDatabase,
    secretBox,
    scriptSigner,
  };
  if (!config.oidc.embedded) return { ...shared, verifier: createTokenVerifier(config) };
  const keys = await loadOrCreateKeys(config.dataDir);
  return {
    ...shared,
    keys,
    verifier: createTokenVerifier(config, publicKeySet(keys)),
    provider: createEmbeddedProvider(db, config, keys, secretBox),
  };
}
