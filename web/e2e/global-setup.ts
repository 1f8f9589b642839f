import { spawn, type ChildProcess } from 'node:child_process';
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

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The portal exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The portal did not become healthy:\n${output()}`);
}

/** Starts the built portal (server/dist + web/dist) on a fresh embedded database for the browser tests. */
export default async function setup(project: TestProject) {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-e2e-'));
  let log = '';
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: root,
    // OUTBOUND_ALLOW: the actions under test call endpoints the tests run on loopback.
    env: { ...process.env, PORT: String(port), PUBLIC_URL: url, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', FEATURES: 'I3ERequestForm', DEMO_AGENT: 'false', OUTBOUND_ALLOW: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await waitForHealth(url, child, () => log);
  project.provide('portalUrl', url);
  project.provide('portalDataDir', dataDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    // The database server's last files may still be going away as the portal exits.
    await fs.rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  };
}
