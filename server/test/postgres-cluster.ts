import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.js';

const run = promisify(execFile);

/** The newest PostgreSQL server installed from the system's packages (`/usr/lib/postgresql/<major>/bin`). */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root)
    ? fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, 'bin', 'pg_basebackup')))
    : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest)
    throw new Error(
      'This test needs a PostgreSQL server installed from the system packages (initdb, pg_ctl, pg_basebackup).',
    );
  return path.join(root, newest, 'bin');
}

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
async function asPostgres(program: string, args: readonly string[]): Promise<string> {
  const binary = path.join(postgresBinDir(), program);
  const { stdout } =
    process.getuid?.() === 0
      ? await run('runuser', ['-u', 'postgres', '--', binary, ...args])
      : await run(binary, [...args]);
  return stdout;
}

export interface Cluster {
  port: number;
  dataDir: string;
  url(database?: string): string;
  stop(): Promise<void>;
}

async function ownedDir(prefix: string): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', dir]);
  return dir;
}

async function start(dataDir: string, port: number): Promise<Cluster> {
  await asPostgres('pg_ctl', [
    '-D',
    dataDir,
    '-l',
    path.join(dataDir, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`,
    'start',
  ]);
  return {
    port,
    dataDir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await asPostgres('pg_ctl', ['-D', dataDir, '-w', '-m', 'fast', 'stop']).catch(() => undefined);
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new primary on a loopback port, trusting local connections and replication (for a test only). */
export async function startPrimary(): Promise<Cluster> {
  const dataDir = await ownedDir('cfs-primary-');
  await asPostgres('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  await fsp.appendFile(path.join(dataDir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n');
  await fsp.appendFile(
    path.join(dataDir, 'postgresql.conf'),
    'wal_level = replica\nmax_wal_senders = 4\nfsync = off\n',
  );
  return start(dataDir, await freePort());
}

/** A streaming replica of `primary`, made with pg_basebackup and started on a loopback port of its own. */
export async function startReplica(primary: Cluster): Promise<Cluster> {
  const dataDir = await ownedDir('cfs-replica-');
  await asPostgres('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
    '--no-sync',
  ]);
  return start(dataDir, await freePort());
}
