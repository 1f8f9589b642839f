import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../server/src/app.js';
import { mintAccessToken } from '../../server/src/auth/embedded/mint.js';
import { loadConfig } from '../../server/src/config.js';
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

/**
 * A portal for a benchmark: its own embedded database, or its own schema on the PostgreSQL
 * server named by BENCH_DATABASE_URL, listening on a free port. `load` fills it before it listens.
 */
export async function openBenchPortal(load: (runtime: Runtime) => Promise<void>): Promise<BenchPortal> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-bench-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SEED: 'true', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const schema = databaseUrl ? `bench_${process.pid}` : undefined;
  if (schema && databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.end();
  }
  const runtime = await openRuntime(config, schema ? { schema } : {});
  const close = async () => {
    if (schema) await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(runtime.db);
    await runtime.db.destroy();
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
      label: databaseUrl ? 'PostgreSQL server' : 'PGlite',
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
