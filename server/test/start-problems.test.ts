import fs from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, spawnCommand, spawnPortal, until, waitForHealth, type TestProcess } from './processes.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

let database: TestDatabase;
let dataDir: string;
const holders: Server[] = [];
const portals: TestProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-port-'));
});

afterAll(async () => {
  for (const portal of portals) portal.child.kill('SIGKILL');
  for (const holder of holders) await new Promise((resolve) => holder.close(resolve));
  await database.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A port of 127.0.0.1 that another program listens on for the rest of the file. */
async function heldPort(): Promise<number> {
  const port = await freePort();
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  holders.push(holder);
  return port;
}

/** Starts the portal with `env` and waits for it to end: its exit code and what it printed. */
async function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const portal = spawnPortal({ DATABASE_URL: database.url, DATA_DIR: dataDir, HOST: '127.0.0.1', ...env });
  portals.push(portal);
  const code = await portal.exited();
  return { code, output: portal.output() };
}

describe('a start the administrator must fix is said in one sentence, without a stack, and exits with 1', () => {
  test.each(['PORT', 'METRICS_PORT'])(
    'its %s taken by another program: the port, and the setting that moves it',
    async (variable) => {
      const port = await heldPort();
      const { code, output } = await start({ PORT: String(await freePort()), [variable]: String(port) });
      expect(code).toBe(1);
      expect(output).toContain(
        `Port ${port} on 127.0.0.1 is in use by another program. Stop that program, or start the portal on another port, e.g. ${variable}=${port + 1} npm start.`,
      );
      // Not the listener's error and stack.
      expect(output).not.toContain('EADDRINUSE');
      expect(output).not.toContain('    at ');
    },
    60_000,
  );

  test('a database server that is not running: what to check, naming DATABASE_URL', async () => {
    const closed = await freePort();
    const { code, output } = await start({
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://portal:secret@127.0.0.1:${closed}/portal`,
    });
    expect(code).toBe(1);
    expect(output).toContain(
      `The database server at 127.0.0.1:${closed} (DATABASE_URL) refused the connection: is PostgreSQL running there?`,
    );
    expect(output).not.toContain('    at ');
    // The address's password is not repeated.
    expect(output).not.toContain('secret');
  }, 60_000);

  test('a database that does not exist on the server: its name, to create first', async () => {
    const url = new URL(database.url);
    url.pathname = '/no_such_portal_database';
    const { code, output } = await start({ PORT: String(await freePort()), DATABASE_URL: url.toString() });
    expect(code).toBe(1);
    expect(output).toContain(
      `The database "no_such_portal_database" does not exist on ${url.hostname}:${url.port || '5432'} (DATABASE_URL): create it first.`,
    );
    expect(output).not.toContain('    at ');
  }, 60_000);

  test('a data folder that is a file: the folder, and what to choose instead', async () => {
    const file = path.join(dataDir, 'not-a-folder');
    await fs.writeFile(file, '');
    const { code, output } = await start({ PORT: String(await freePort()), DATA_DIR: file });
    expect(code).toBe(1);
    expect(output).toContain(`The data folder ${file} (DATA_DIR) cannot hold the portal's data: EEXIST`);
    expect(output).toContain('Choose a folder this user may write.');
    expect(output).not.toContain('    at ');
  }, 60_000);

  test('a setting that is not valid: the variable and what it must be', async () => {
    const { code, output } = await start({
      PORT: 'eighty',
      PUBLIC_URL: 'localhost:8080',
      OUTBOUND_ALLOW: 'hooks.example.com,10.0.0.0/99',
    });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration: PORT: Invalid input: expected number, received NaN');
    expect(output).toContain('PUBLIC_URL: must be an http:// or https:// address, e.g. https://portal.example.com');
    expect(output).toContain('OUTBOUND_ALLOW: "10.0.0.0/99" is not a CIDR range');
    expect(output).not.toContain('    at ');
  }, 60_000);

  test('an external identity provider that cannot be read is said at start; the portal serves on', async () => {
    const closed = await freePort();
    const port = await freePort();
    const authority = `http://127.0.0.1:${closed}/realms/staff`;
    const portal = spawnPortal({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      OIDC_AUTHORITY: authority,
      OIDC_CLIENT_ID: 'portal',
    });
    portals.push(portal);
    await waitForHealth(portal, `http://127.0.0.1:${port}`);
    await until(() => portal.output().includes('(OIDC_AUTHORITY) could not be read'), 'the warning');
    expect(portal.output()).toContain(
      `The identity provider at ${authority} (OIDC_AUTHORITY) could not be read: connect ECONNREFUSED 127.0.0.1:${closed}. Nobody can sign in until it can.`,
    );
    // A stop asked for as soon as it serves is a graceful one.
    portal.child.kill('SIGTERM');
    expect(await portal.exited()).toBe(0);
  }, 60_000);
});

/** Runs one of the portal's commands to its end: its exit code and what it printed. */
async function command(file: string, args: string[], env: Record<string, string>) {
  const run = spawnCommand(file, args, env);
  const code = await run.exited();
  return { code, output: run.output() };
}

describe('backup and restore say a database they cannot reach as the start does', () => {
  test('a backup whose database server refuses the connection says where, with the setting, and nothing more', async () => {
    const port = await freePort();
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-backup-'));
    try {
      const folder = path.join(work, 'monday');
      expect(
        await command('backup.ts', [folder], { DATABASE_URL: `postgres://portal:secret@127.0.0.1:${port}/portal` }),
      ).toEqual({
        code: 1,
        output: `The database server at 127.0.0.1:${port} (DATABASE_URL) refused the connection: is PostgreSQL running there?\n`,
      });
      // Nothing in the backup folder: the same backup can be taken into it once the server is up.
      expect(await fs.readdir(folder)).toEqual([]);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  });

  test('a restore whose database server cannot be reached leaves DATA_DIR as it was, so that it can be run again', async () => {
    const port = await freePort();
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-restore-'));
    try {
      const backupFolder = path.join(work, 'backup');
      await fs.mkdir(path.join(backupFolder, 'keys'), { recursive: true });
      await fs.writeFile(path.join(backupFolder, 'keys', 'session-key'), 'secret');
      await fs.writeFile(path.join(backupFolder, 'backup.json'), '{}');
      await fs.writeFile(path.join(backupFolder, 'database.dump'), '');
      const restoreInto = path.join(work, 'data');
      const restore = () =>
        command('restore.ts', [backupFolder], {
          DATA_DIR: restoreInto,
          DATABASE_URL: `postgres://portal@127.0.0.1:${port}/portal`,
        });
      const refused = `The database server at 127.0.0.1:${port} (DATABASE_URL) refused the connection: is PostgreSQL running there?\n`;
      expect(await restore()).toEqual({ code: 1, output: refused });
      expect(await fs.readdir(restoreInto)).toEqual([]);
      // Run again, it meets the same server, not keys it left behind.
      expect(await restore()).toEqual({ code: 1, output: refused });
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  });
});
