import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    portalUrl: string;
    portalDataDir: string;
  }
}

const root = path.resolve(import.meta.dirname, '..', '..');

/** Written into the portal's data folder when it exits before the run ends: why, with its output. */
export const PORTAL_EXITED_FILE = 'portal-exited.txt';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built portal (server/dist + web/dist) on a fresh embedded database for the browser
 * tests, and returns as soon as it is started: the portal prepares its database while the other
 * projects' global setups run, and each browser test file waits until it answers (portal-ready.ts).
 * A portal that exits before the run ends says why, here and to every file still to run.
 */
export default async function setup(project: TestProject) {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-e2e-'));
  let log = '';
  let stopping = false;
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: root,
    // OUTBOUND_ALLOW: the actions under test call endpoints the tests run on loopback.
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      FEATURES: 'I3ERequestForm',
      DEMO_AGENT: 'false',
      OUTBOUND_ALLOW: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.once('exit', (code, signal) => {
    if (stopping) return;
    const message = `The browser tests' portal at ${url} exited (${code ?? signal}):\n${log}`;
    console.error(message);
    // The files waiting for it read this and fail at once (portal-ready.ts).
    void fs.writeFile(path.join(dataDir, PORTAL_EXITED_FILE), message);
  });
  project.provide('portalUrl', url);
  project.provide('portalDataDir', dataDir);
  return async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    // The database server's last files may still be going away as the portal exits.
    await fs.rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  };
}
