import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { PORTAL_ROLE, startEmbeddedServer, type EmbeddedServer } from '../src/db/embedded-server.js';
import { isAlive } from './processes.js';

const folders: string[] = [];
const servers: EmbeddedServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

function dataDir(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-embedded-'));
  folders.push(folder);
  return folder;
}

async function start(folder: string): Promise<EmbeddedServer> {
  const server = await startEmbeddedServer({
    clusterDir: path.join(folder, 'postgres'),
    keysDir: path.join(folder, 'keys'),
  });
  servers.push(server);
  return server;
}

async function query(server: EmbeddedServer, text: string, as: 'portal' | 'superuser' = 'portal'): Promise<unknown[]> {
  const client = new pg.Client({
    connectionString: as === 'portal' ? server.url('postgres') : server.superuserUrl('postgres'),
  });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL server', () => {
  test('keeps its cluster and password private and listens on no network interface', async () => {
    const folder = dataDir();
    const server = await start(folder);
    expect(fs.statSync(path.join(folder, 'postgres')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(folder, 'keys', 'postgres-password')).mode & 0o777).toBe(0o600);
    expect(server.connection.host).toBe(path.join(folder, 'postgres'));
    expect(await query(server, "SELECT current_setting('listen_addresses') AS listen")).toEqual([{ listen: '' }]);
  });

  test('lets the portal connect only as a role that owns its schema and is no superuser: no file of the server can be read through it', async () => {
    const folder = dataDir();
    const server = await start(folder);
    expect(server.connection.user).toBe(PORTAL_ROLE);
    expect(fs.statSync(path.join(folder, 'keys', 'postgres-portal-password')).mode & 0o777).toBe(0o600);
    expect(
      await query(
        server,
        'SELECT rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = current_user',
      ),
    ).toEqual([
      { rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolreplication: false, rolbypassrls: false },
    ]);
    // What a superuser's connection could do, and the portal's cannot.
    await expect(query(server, "SELECT pg_read_file('postgresql.conf')")).rejects.toThrow(/permission denied/);
    await expect(query(server, "COPY (SELECT 1) TO PROGRAM 'true'")).rejects.toThrow(
      /permission denied|must be superuser|privileges/i,
    );
    await expect(query(server, 'CREATE ROLE intruder SUPERUSER')).rejects.toThrow(/permission denied/);
    // It owns the schema: it makes its tables, and the trusted extension the migrations use.
    await query(server, 'CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await query(server, 'CREATE TABLE portal_table (id int)');
    expect(await query(server, "SELECT tableowner FROM pg_tables WHERE tablename = 'portal_table'")).toEqual([
      { tableowner: PORTAL_ROLE },
    ]);
  });

  test("hands a cluster made before the portal's role (everything the superuser's) over to that role at the next start", async () => {
    const folder = dataDir();
    const first = await start(folder);
    await query(first, 'CREATE TABLE made_before (id serial PRIMARY KEY)', 'superuser');
    await query(first, 'CREATE TABLE made_before_parts (day date NOT NULL) PARTITION BY RANGE (day)', 'superuser');
    await query(
      first,
      "CREATE TABLE made_before_parts_1 PARTITION OF made_before_parts FOR VALUES FROM ('2026-01-01') TO ('2026-01-02')",
      'superuser',
    );
    await query(first, "CREATE FUNCTION made_before_fn() RETURNS int LANGUAGE sql AS 'SELECT 1'", 'superuser');
    await query(first, "CREATE TYPE made_before_state AS ENUM ('a', 'b')", 'superuser');
    await query(first, 'ALTER SCHEMA public OWNER TO portal', 'superuser');
    await expect(query(first, 'INSERT INTO made_before DEFAULT VALUES')).rejects.toThrow(/permission denied/);
    await first.stop();

    const again = await start(folder);
    await query(again, 'INSERT INTO made_before DEFAULT VALUES');
    await query(again, "INSERT INTO made_before_parts VALUES ('2026-01-01')");
    expect(
      await query(
        again,
        "SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relowner <> current_user::regrole",
      ),
    ).toEqual([{ n: 0 }]);
    expect(await query(again, 'SELECT made_before_fn() AS one')).toEqual([{ one: 1 }]);
    expect(
      await query(
        again,
        `SELECT (SELECT tableowner FROM pg_tables WHERE tablename = 'made_before') AS "table",
                (SELECT sequenceowner FROM pg_sequences WHERE sequencename = 'made_before_id_seq') AS "sequence",
                (SELECT pg_get_userbyid(typowner) FROM pg_type WHERE typname = 'made_before_state') AS "type",
                (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'public') AS "schema"`,
      ),
    ).toEqual([{ table: PORTAL_ROLE, sequence: PORTAL_ROLE, type: PORTAL_ROLE, schema: PORTAL_ROLE }]);
  });

  test('comes back after its portal was killed with SIGKILL, stopping the server it left running', async () => {
    const folder = dataDir();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'hold-embedded-server.ts'), folder],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
    });
    const leftOver = Number.parseInt(fs.readFileSync(path.join(folder, 'postgres', 'postmaster.pid'), 'utf8'), 10);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(isAlive(leftOver)).toBe(true);

    const server = await start(folder);
    expect(await query(server, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(isAlive(leftOver)).toBe(false);
  });

  test('leaves SIGTERM to the portal, which finishes its own work and then stops the server', async () => {
    const folder = dataDir();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'hold-embedded-server.ts'), folder],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
    });
    const serverPid = Number.parseInt(fs.readFileSync(path.join(folder, 'postgres', 'postmaster.pid'), 'utf8'), 10);
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(output).toContain('stopped cleanly');
    expect(code).toBe(0);
    expect(isAlive(serverPid)).toBe(false);
  });

  test('runs beside another portal with a different data folder', async () => {
    const [first, second] = await Promise.all([start(dataDir()), start(dataDir())]);
    await query(first, 'CREATE TABLE only_here (id int)');
    expect(await query(second, "SELECT to_regclass('only_here') AS found")).toEqual([{ found: null }]);
    await first.stop();
    expect(await query(second, 'SELECT 2 AS two')).toEqual([{ two: 2 }]);
  });
});
