import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPortalClient, type PortalClient } from '@cfs/client';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadOrCreateKeys } from '../src/auth/embedded/keys.js';
import { mintAccessToken } from '../src/auth/embedded/mint.js';
import { loadConfig, type Config } from '../src/config.js';
import type { Db } from '../src/db/database.js';
import { openRuntime, type Runtime } from '../src/runtime.js';
import { injectFetch } from './inject-fetch.js';
import { freePort } from './processes.js';
import { createTestDatabase } from './test-database.js';

export interface TestPortal {
  app: FastifyInstance;
  db: Db;
  config: Config;
  runtime: Runtime;
  /** A bearer token for a seeded user (admin, operator, enduser, operator2) or any created one. */
  token(userName: string): Promise<string>;
  /** `inject` as a user: adds the bearer token. */
  as(userName: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** The typed client of the API (`@cfs/client`) as a user, calling the portal in-process through `inject`. */
  client(userName: string): Promise<PortalClient>;
  close(): Promise<void>;
}

/** The Authorization header that carries a bearer token: an API token, a device's credential, an access token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The change history of one entity, oldest first: each action and what it changed (src/audit/audit.ts). */
export function auditTrail(db: Db, entityType: string, entityId: string) {
  return db
    .selectFrom('audit_event')
    .select(['action', 'changes'])
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', entityId)
    .orderBy('audit_event_id')
    .execute();
}

/** The embedded provider's keys, made once per test worker (keys.ts). */
let providerKeys: Promise<string> | undefined;

/**
 * Puts the worker's provider keys into a new data folder, as the portal keeps its own (owner-only
 * DATA_DIR/keys/identity-provider.json): an RSA key takes 0.1 to 0.4 s of CPU to make, and each
 * test portal would make one. The portals of a worker then share the provider's signing and
 * cookie keys (a test that needs keys of its own gives DATA_DIR); each has its own database.
 */
async function withProviderKeys(dataDir: string): Promise<void> {
  providerKeys ??= fs.mkdtemp(path.join(os.tmpdir(), 'cfs-test-keys-')).then(async (folder) => {
    await loadOrCreateKeys(folder);
    return fs.readFile(path.join(folder, 'keys', 'identity-provider.json'), 'utf8');
  });
  const keys = path.join(dataDir, 'keys');
  await fs.mkdir(keys, { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(keys, 'identity-provider.json'), await providerKeys, { mode: 0o600 });
}

/**
 * A whole portal in-process with a database of its own, copied from the run's migrated and
 * seeded template (the demo tenants, users and work units).
 */
export async function createTestPortal(env: Record<string, string> = {}): Promise<TestPortal> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-test-'));
  await withProviderKeys(dataDir);
  // With an external identity provider the portal has no local accounts: it migrates and seeds its own database.
  const database = await createTestDatabase({ empty: env.OIDC_AUTHORITY !== undefined });
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://portal.test',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'true',
    DATABASE_URL: database.url,
    ...env,
  });
  const runtime = await openRuntime(config);
  // TEST_LOG=1 prints the portal's errors (a 500's cause) while a test runs.
  const app = await buildApp({
    ...runtime,
    ...(runtime.provider ? { provider: runtime.provider } : {}),
    logger: process.env.TEST_LOG ? { level: 'error' } : false,
  });
  await app.ready();
  const tokens = new Map<string, string>();
  const token = async (userName: string) => {
    const cached = tokens.get(userName);
    if (cached) return cached;
    const { keys, provider } = runtime;
    if (!keys || !provider) throw new Error('No embedded identity provider in this portal');
    const minted = await mintAccessToken({ config, keys, provider }, userName);
    tokens.set(userName, minted);
    return minted;
  };
  return {
    app,
    db: runtime.db,
    config,
    runtime,
    token,
    async as(userName, options) {
      const headers = { ...(options.headers ?? {}), authorization: `Bearer ${await token(userName)}` };
      return app.inject({ ...options, headers });
    },
    async client(userName) {
      return createPortalClient({ baseUrl: config.publicUrl, token: await token(userName), fetch: injectFetch(app) });
    },
    async close() {
      await app.close();
      await runtime.closeDatabase();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A second instance of a test portal: same database and signing keys, its own pool, caches and listeners. */
export interface SecondInstance {
  app: FastifyInstance;
  runtime: Runtime;
  /** `inject` on this instance as a user of the first one's tokens. */
  as(userName: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Another instance of `portal` on its database, as behind a load balancer; `env` changes its configuration. */
export async function openSecondInstance(
  portal: TestPortal,
  env: Record<string, string> = {},
): Promise<SecondInstance> {
  const { config } = portal;
  const runtime = await openRuntime(
    loadConfig({
      ...process.env,
      DATA_DIR: config.dataDir,
      PUBLIC_URL: config.publicUrl,
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'true',
      DATABASE_URL: config.databaseUrl ?? '',
      ...env,
    }),
  );
  // TEST_LOG=1 prints the portal's errors (a 500's cause) while a test runs.
  const app = await buildApp({
    ...runtime,
    ...(runtime.provider ? { provider: runtime.provider } : {}),
    logger: process.env.TEST_LOG ? { level: 'error' } : false,
  });
  await app.ready();
  return {
    app,
    runtime,
    as: async (userName, options) =>
      app.inject({
        ...options,
        headers: { ...(options.headers ?? {}), authorization: `Bearer ${await portal.token(userName)}` },
      }),
    close: async () => {
      await app.close();
      await runtime.closeDatabase();
    },
  };
}

/** Every route the portal registers (the libraries' included), seen as an app is built over `portal`'s runtime. */
export async function registeredRoutes(portal: TestPortal): Promise<RouteOptions[]> {
  const { runtime } = portal;
  const routes: RouteOptions[] = [];
  const app = await buildApp({
    ...runtime,
    ...(runtime.provider ? { provider: runtime.provider } : {}),
    logger: false,
    routeObserver: (route) => void routes.push(route),
  });
  await app.ready();
  await app.close();
  return routes;
}

/**
 * A test portal that also listens on 127.0.0.1, at the address that is its PUBLIC_URL (`origin`):
 * the identity provider's issuer is the address a browser uses, so the port is chosen first.
 */
export async function createListeningPortal(
  env: Record<string, string> = {},
): Promise<TestPortal & { origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const portal = await createTestPortal({ PUBLIC_URL: origin, ...env });
  const { runtime } = portal;
  const server = await buildApp({
    ...runtime,
    ...(runtime.provider ? { provider: runtime.provider } : {}),
    logger: false,
  });
  await server.listen({ port, host: '127.0.0.1' });
  return {
    ...portal,
    origin,
    async close() {
      await server.close();
      await portal.close();
    },
  };
}
