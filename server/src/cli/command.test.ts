import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readArguments } from './command.js';

const USAGE = 'usage: npm run backup -- <backup folder>';

describe("a command's arguments", () => {
  test('the one argument it takes', () => {
    expect(readArguments(['/srv/backups/monday'], USAGE, 1)).toEqual({ values: ['/srv/backups/monday'] });
    expect(readArguments([], USAGE, 0)).toEqual({ values: [] });
  });

  test('--help and -h ask for the usage line, which is no error', () => {
    expect(readArguments(['--help'], USAGE, 1)).toEqual({ exitCode: 0, message: USAGE });
    expect(readArguments(['-h'], USAGE, 0)).toEqual({ exitCode: 0, message: USAGE });
  });

  test('another option, or too few or too many arguments, is an error with the usage line', () => {
    expect(readArguments(['--force'], USAGE, 1)).toEqual({ exitCode: 2, message: `Unknown option --force\n${USAGE}` });
    expect(readArguments(['folder', '-v'], USAGE, 1)).toEqual({ exitCode: 2, message: `Unknown option -v\n${USAGE}` });
    expect(readArguments([], USAGE, 1)).toEqual({ exitCode: 2, message: USAGE });
    expect(readArguments([''], USAGE, 1)).toEqual({ exitCode: 2, message: USAGE });
    expect(readArguments(['one', 'two'], USAGE, 1)).toEqual({ exitCode: 2, message: USAGE });
    expect(readArguments(['now'], USAGE, 0)).toEqual({ exitCode: 2, message: USAGE });
  });

  test('npm run token -- --help prints its usage and no token', async () => {
    expect(await runCli('token.ts', ['--help'])).toEqual({
      code: 0,
      output: 'usage: npm run --silent token -- <user name>\n',
    });
  });

  test('a backup whose database server refuses the connection says where, with the setting, and nothing more', async () => {
    const port = await closedPort();
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-backup-'));
    try {
      const folder = path.join(work, 'monday');
      expect(
        await runCli('backup.ts', [folder], { DATABASE_URL: `postgres://portal:secret@127.0.0.1:${port}/portal` }),
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
    const port = await closedPort();
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-restore-'));
    try {
      const backupFolder = path.join(work, 'backup');
      await fs.mkdir(path.join(backupFolder, 'keys'), { recursive: true });
      await fs.writeFile(path.join(backupFolder, 'keys', 'session-key'), 'secret');
      await fs.writeFile(path.join(backupFolder, 'backup.json'), '{}');
      await fs.writeFile(path.join(backupFolder, 'database.dump'), '');
      const dataDir = path.join(work, 'data');
      const restore = () =>
        runCli('restore.ts', [backupFolder], {
          DATA_DIR: dataDir,
          DATABASE_URL: `postgres://portal@127.0.0.1:${port}/portal`,
        });
      const refused = `The database server at 127.0.0.1:${port} (DATABASE_URL) refused the connection: is PostgreSQL running there?\n`;
      expect(await restore()).toEqual({ code: 1, output: refused });
      expect(await fs.readdir(dataDir)).toEqual([]);
      // Run again, it meets the same server, not keys it left behind.
      expect(await restore()).toEqual({ code: 1, output: refused });
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  });
});

/** Runs a command of the portal as `npm run` does; what it printed (both streams) and its exit code. */
async function runCli(
  file: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const root = path.resolve(import.meta.dirname, '..', '..', '..');
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join('server', 'src', 'cli', file), ...args],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

/** A port on the loopback address that nothing listens on now. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
