import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { mintAccessToken } from '../src/auth/embedded/mint.js';
import { loadConfig, type Config } from '../src/config.js';
import type { Db } from '../src/db/database.js';
import { openRuntime, type Runtime } from '../src/runtime.js';

/** Which database the server suite runs on: `TEST_DB=postgres` uses TEST_DATABASE_URL. */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestPortal {
  app: FastifyInstance;
  db: Db;
  config: Config;
  runtime: Runtime;
  /** A bearer token for a seeded user (admin, operator, enduser, operator2) or any created one. */
  token(userName: string): Promise<string>;
  /** `inject` as a user: adds the bearer token. */
  as(userName: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A whole portal in-process with its own database: a fresh in-memory PGlite, or a schema of
 * its own on the PostgreSQL server, migrated and seeded with the demo data.
 */
export async function createTestPortal(env: Record<string, string> = {}): Promise<TestPortal> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-test-'));
  const schema = TEST_DB === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  if (schema) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.end();
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://portal.test',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'true',
    ...(schema ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
    ...env,
  });
  const runtime = await openRuntime(config, { ...(schema ? { schema } : { pgliteDir: 'memory://' }) });
  const app = await buildApp({ ...runtime, ...(runtime.provider ? { provider: runtime.provider } : {}), logger: false });
  await app.ready();
  const tokens = new Map<string, string>();
  const token = async (userName: string) => {
    const cached = tokens.get(userName);
    if (cached) return cached;
    if (!runtime.keys) throw new Error('No embedded identity provider in this portal');
    const minted = await mintAccessToken(config, runtime.keys, userName);
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
    async close() {
      await app.close();
      await runtime.db.destroy();
      if (schema) {
        const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
        await client.end();
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
