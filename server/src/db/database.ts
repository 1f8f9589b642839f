import path from 'node:path';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { PORTAL_DATABASE, startEmbeddedServer } from './embedded-server.js';
import { guardTransactions } from './transaction-guard.js';
import type { DB as Database } from './schema.js';
import { trackPool } from '../observability/metrics.js';
import { keepPreparedPlans } from './prepared.js';

/** The root handle: reads, and the start of transactions. */
export type Db = Kysely<Database>;
/** An open transaction: what every write function takes, so that it cannot be handed the root handle. */
export type Tx = Transaction<Database>;

export interface DatabaseOptions {
  /** A PostgreSQL connection string; unset means the embedded server under `dataDir/postgres`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Connections in this process's pool. */
  poolSize?: number;
  /** The statement timeout of the pool's connections, in milliseconds; 0 or unset: none. */
  statementTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface OpenedDatabase {
  db: Db;
  /** The connection string the pool uses (the embedded server's when no DATABASE_URL is set). */
  url: string;
  /** Closes the pool and stops the embedded server this process started. */
  close(): Promise<void>;
}

// timestamptz → Date, int8 (bigint, count(*)) → number: counts and identities stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** The same server's connection string for another database: `postgres://…/portal?x` → `postgres://…/other?x`. */
export function withDatabaseName(url: string, database: string): string {
  const match = /^(postgres(?:ql)?:\/\/[^/?]*)(\/[^?]*)?(\?.*)?$/.exec(url);
  if (!match) throw new Error('Not a PostgreSQL connection string');
  return `${match[1]}/${encodeURIComponent(database)}${match[3] ?? ''}`;
}

export function connect(url: string, poolSize = 10, statementTimeoutMs = 0): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // One statement runs in one server process: with parallel workers one tenant's costly search
    // took every core of the database server, and every other tenant's requests waited for CPU.
    options: '-c max_parallel_workers_per_gather=0',
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // An idle connection the server ends (a restart, an administrator) is dropped from the pool and
  // replaced on demand; without a listener the pool's 'error' event would end the process.
  pool.on('error', (error) => console.error('A database connection was closed by the server:', error.message));
  // The pool listens only to its idle connections. One that is lost while checked out (a query or
  // transaction under way when the server restarts) fails its query, which is answered as an
  // error, and then leaves the pool on release; without this listener its 'error' event would
  // end the process.
  pool.on('connect', (client) => {
    client.on('error', (error) =>
      console.error('A database connection in use was closed by the server:', error.message),
    );
    keepPreparedPlans(client);
  });
  trackPool(pool);
  const dialect = new PostgresDialect({ pool });
  // In tests a query through the root handle inside an open transaction throws (transaction-guard.ts).
  const db = new Kysely<Database>({ dialect: process.env.NODE_ENV === 'test' ? guardTransactions(dialect) : dialect });
  poolSizes.set(db, poolSize);
  return db;
}

const poolSizes = new WeakMap<Db, number>();

/** The connections of a pool opened by `connect`: what the job worker sizes how many jobs it runs at once by. */
export function poolSizeOf(db: Db): number | undefined {
  return poolSizes.get(db);
}

/**
 * The portal's database: the server at DATABASE_URL, or the embedded PostgreSQL server that the
 * portal starts itself (and stops on close) with its cluster under `DATA_DIR/postgres`.
 */
export async function openDatabase(options: DatabaseOptions): Promise<OpenedDatabase> {
  if (options.databaseUrl) {
    const db = connect(options.databaseUrl, options.poolSize, options.statementTimeoutMs);
    return { db, url: options.databaseUrl, close: () => db.destroy() };
  }
  const server = await startEmbeddedServer({
    clusterDir: path.join(options.dataDir, 'postgres'),
    keysDir: path.join(options.dataDir, 'keys'),
    ...(options.log ? { log: options.log } : {}),
  });
  const url = server.url(PORTAL_DATABASE);
  const db = connect(url, options.poolSize, options.statementTimeoutMs);
  return {
    db,
    url,
    close: async () => {
      await db.destroy();
      await server.stop();
    },
  };
}

/** A deadlock (40P01) or serialization failure (40001): PostgreSQL rolled the statement back whole, and running it again may succeed. */
export function isRetryableConflict(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === '40P01' || error.code === '40001');
}

/**
 * Runs `work` (one statement or one transaction) again when PostgreSQL broke a deadlock or a
 * serialization conflict by rolling it back: two instances writing the same rows in different
 * orders is expected under load, and the rolled-back side wrote nothing. A short random pause
 * keeps the two from meeting again.
 */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
