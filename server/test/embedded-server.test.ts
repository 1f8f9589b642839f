import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { startEmbeddedServer, type EmbeddedServer } from '../src/db/embedded-server.js';
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
  const server = await startEmbeddedServer({ clusterDir: path.join(folder, 'postgres'), keysDir: path.join(folder, 'keys') });
  servers.push(server);
  return server;
}

async function query(server: EmbeddedServer, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: server.url('postgres') });
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

  test('comes back after its portal was killed with SIGKILL, stopping the server it left running', async () => {
    const folder = dataDir();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'hold-embedded-server.ts'), folder], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures', 'hold-embedded-server.ts'), folder], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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
