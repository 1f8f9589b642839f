import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connect, withDatabaseName } from '../src/db/database.js';
import { startEmbeddedServer, type EmbeddedServer } from '../src/db/embedded-server.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { seed } from '../src/db/seed.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection string to the test server's maintenance database, for CREATE/DROP DATABASE. */
    testServerUrl: string;
    /** The migrated, seeded database every test file's portal copies (`CREATE DATABASE … TEMPLATE`). */
    testTemplate: string;
    /** Prefix of this run's databases; teardown drops whatever is left with it. */
    testRunPrefix: string;
  }
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The server suite's database server: the one at TEST_DATABASE_URL when it answers, else an
 * embedded server started for this run (settings for speed: nothing here must survive a crash).
 * One template database is migrated and seeded once; each test file copies it.
 */
export default async function setup(project: TestProject) {
  const configured = process.env.TEST_DATABASE_URL;
  let embedded: EmbeddedServer | undefined;
  let dataDir: string | undefined;
  let serverUrl: string;
  if (configured && (await reachable(configured))) {
    serverUrl = configured;
  } else {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-test-db-'));
    embedded = await startEmbeddedServer({
      clusterDir: path.join(dataDir, 'postgres'),
      keysDir: path.join(dataDir, 'keys'),
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
    });
    serverUrl = embedded.superuserUrl('postgres');
  }
  const prefix = `cfs_t${process.pid}_${randomBytes(3).toString('hex')}`;
  const template = `${prefix}_template`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${template}`));
  const db = connect(withDatabaseName(serverUrl, template), 2);
  try {
    await migrateToLatest(db);
    await seed(db, { demo: true, localUsers: true });
  } finally {
    await db.destroy();
  }
  project.provide('testServerUrl', serverUrl);
  project.provide('testTemplate', template);
  project.provide('testRunPrefix', prefix);

  return async () => {
    await withClient(serverUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1`,
        [`${prefix}%`],
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    });
    await embedded?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
}
