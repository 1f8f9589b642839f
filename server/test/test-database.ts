import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { connect, withDatabaseName, type Db } from '../src/db/database.js';
import { withClient } from './global-setup.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for a test: a copy of the run's migrated and seeded template, or an
 * empty one (`{ empty: true }`) for tests that make their own tables.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = inject('testServerUrl');
  const name = `${inject('testRunPrefix')}_${randomBytes(5).toString('hex')}`;
  const template = options.empty ? 'template0' : inject('testTemplate');
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: withDatabaseName(serverUrl, name),
    drop: () => withClient(serverUrl, (client) => dropWhenLeft(client, name)),
  };
}

/** A test file's own database (ownDatabase), there from its first test to its last. */
export interface OwnDatabase {
  readonly url: string;
  /** A pool on it, of the connections asked for. */
  readonly db: Db;
}

/**
 * A database of the test file's own, a copy of the run's template: made before the file's tests
 * (and then `prepare` runs on it, say to put back what the release before a migration left) and
 * dropped after them.
 */
export function ownDatabase(connections: number, prepare?: (db: Db) => Promise<unknown>): OwnDatabase {
  let database: TestDatabase | undefined;
  let pool: Db | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = connect(database.url, connections);
    await prepare?.(pool);
  });
  afterAll(async () => {
    await pool?.destroy();
    await database?.drop();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("A test file's own database is there only from its first test on");
    return value;
  };
  return {
    get url() {
      return ready(database).url;
    },
    get db() {
      return ready(pool);
    },
  };
}

/**
 * Drops a test's database once its connections have gone. A pool's end resolves before its
 * connections have finished closing; forcing the drop then would end them from the server, and a
 * client still closing would raise that as an error after its test. Forced only as a last resort.
 */
async function dropWhenLeft(client: pg.Client, name: string): Promise<void> {
  const deadline = Date.now() + 5000;
  const sessions = async () =>
    (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]))
      .rows[0]?.n ?? 0;
  while ((await sessions()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * Runs one migration's `up` on a test database, through a connection typed as migrations are
 * (`Kysely<unknown>`): a migration's own test, on data as the release before it left it.
 */
export async function runMigration(url: string, up: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
  const untyped = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
  });
  try {
    await up(untyped);
  } finally {
    await untyped.destroy();
  }
}
