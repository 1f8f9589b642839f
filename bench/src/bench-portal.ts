import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/src/app.js';
import { mintAccessToken } from '../../server/src/auth/embedded/mint.js';
import { loadConfig } from '../../server/src/config.js';
import { withDatabaseName } from '../../server/src/db/database.js';
import { openRuntime, type Runtime } from '../../server/src/runtime.js';

export interface BenchPortal {
  runtime: Runtime;
  /** Where the portal listens, e.g. http://127.0.0.1:41234. */
  address: string;
  app: FastifyInstance;
  token(user: string): Promise<string>;
  label: string;
  close(): Promise<void>;
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A portal for a benchmark: its own embedded PostgreSQL server, or a database of its own on the
 * server named by BENCH_DATABASE_URL, listening on a free port. `load` fills it before it listens.
 */
export async function openBenchPortal(load: (runtime: Runtime) => Promise<void>): Promise<BenchPortal> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-bench-'));
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const database = `cfs_bench_${process.pid}`;
  if (serverUrl) await onServer(serverUrl, `CREATE DATABASE ${database}`);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SEED: 'true', ...(serverUrl ? { DATABASE_URL: withDatabaseName(serverUrl, database) } : {}) });
  const runtime = await openRuntime(config);
  const close = async () => {
    await runtime.closeDatabase();
    if (serverUrl) await onServer(serverUrl, `DROP DATABASE ${database} WITH (FORCE)`);
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    await load(runtime);
    const app = await buildApp({ ...runtime, ...(runtime.provider ? { provider: runtime.provider } : {}), logger: false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { keys } = runtime;
    if (!keys) throw new Error('The benchmark needs the embedded identity provider');
    return {
      runtime,
      address,
      app,
      label: serverUrl ? 'PostgreSQL server' : 'embedded PostgreSQL',
      token: (user) => mintAccessToken(config, keys, user),
      close: async () => {
        await app.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** GETs a path as a user and reads the whole answer. */
export async function get(portal: BenchPortal, token: string, pathAndQuery: string): Promise<Response> {
  const response = await fetch(`${portal.address}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${pathAndQuery} answered ${response.status}`);
  return response;
}
