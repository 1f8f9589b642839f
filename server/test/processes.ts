import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintAccessToken, openTokenMinter } from '../src/auth/embedded/mint.js';
import { loadConfig, type Config } from '../src/config.js';
import { connect, type Db } from '../src/db/database.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** The repository's root, where the built server (server/dist) lives. */
export const repositoryRoot = path.resolve(import.meta.dirname, '..', '..');

/**
 * Node's arguments that run a TypeScript file of the repository from its sources (the workspace
 * packages' `source` condition, tsx), as `npm run dev` runs the server: `spawn(process.execPath,
 * fromSources(file, ...args))`.
 */
export const fromSources = (file: string, ...args: string[]): string[] => [
  '--conditions=source',
  '--import',
  'tsx',
  file,
  ...args,
];

/** The device agent's program, run from its sources by `fromSources`. */
export const agentProgram = path.join(repositoryRoot, 'agent', 'src', 'main.ts');

/** A TCP port of 127.0.0.1 free at the moment of asking, for a server whose address must be known before it starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** Whether a process of this machine with that id is running. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds; throws naming `what` once `timeoutMs` has passed. */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A child process of a test, with what it printed so far (for the error when it dies). */
export interface TestProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process has ended (at once if it has). */
  exited(): Promise<number | null>;
}

function track(child: ChildProcess): TestProcess {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited: () => exit };
}

/**
 * A job worker of the job tests' tasks (fixtures/job-worker.ts) in a process of its own. `ready`
 * resolves once it runs; the child is returned at once, so a test can kill it whatever happens.
 */
export function spawnFixtureWorker(
  databaseUrl: string,
  workerId: string,
  leaseMs: number,
  task: string,
): { child: ChildProcess; ready: Promise<ChildProcess> } {
  const child = spawn(
    process.execPath,
    fromSources(path.join(import.meta.dirname, 'fixtures', 'job-worker.ts'), databaseUrl, String(leaseMs), task),
    {
      env: { ...process.env, WORKER_ID: workerId },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ready = new Promise<ChildProcess>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker ${workerId} exited with ${code}`)));
  });
  return { child, ready };
}

/**
 * The portal's own server program (server/src/main.ts, from the sources as `npm run dev` runs it)
 * in a process of its own, with `env` over the test's environment: `ROLE=worker` for a worker,
 * `PORT` and `DATA_DIR` for a whole portal.
 */
export function spawnPortal(env: Record<string, string>): TestProcess {
  return track(
    spawn(process.execPath, fromSources(path.join('server', 'src', 'main.ts')), {
      cwd: repositoryRoot,
      env: { ...process.env, LOG_LEVEL: 'warn', DEMO_AGENT: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** One of the portal's commands (server/src/cli/`file`, as `npm run backup` runs it) in a process of its own, with `env` over the test's. */
export function spawnCommand(file: string, args: readonly string[], env: Record<string, string> = {}): TestProcess {
  return track(
    spawn(process.execPath, fromSources(path.join('server', 'src', 'cli', file), ...args), {
      cwd: repositoryRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** Runs a command to its end (an npm script, pg_dump); throws with its output when it fails. */
export async function runCommand(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  const run = track(
    spawn(command, args, { cwd: repositoryRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const code = await run.exited();
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${run.output()}`);
  return run.output();
}

/** Waits until the portal process answers /healthz at `url`; throws with its output if it exits first. */
export async function waitForHealth(portal: TestProcess, url: string, timeoutMs = 90_000): Promise<void> {
  await until(
    async () => {
      if (portal.child.exitCode !== null)
        throw new Error(`The portal exited with ${portal.child.exitCode}:\n${portal.output()}`);
      try {
        return (await fetch(`${url}/healthz`)).ok;
      } catch {
        return false;
      }
    },
    `the portal at ${url}`,
    timeoutMs,
  );
}

/** Builds the contracts and the server (incremental: quick when nothing changed), so a suite runs what the sources say. */
export function buildServer(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'server'], { cwd: repositoryRoot, stdio: 'inherit' });
}

/**
 * The built portal (`node server/dist/main.js`) as a process of its own, as an operator runs it:
 * killed with SIGKILL and started again by a suite. Its output is kept (the last lines) to show
 * when it fails.
 */
export class PortalProcess {
  private child: ChildProcess | undefined;
  private readonly output: string[] = [];
  readonly url: string;

  constructor(
    private readonly env: Record<string, string>,
    readonly port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts the portal and resolves once it answers /healthz. */
  async start(timeoutMs = 60_000): Promise<void> {
    // The test runner's own variables (NODE_ENV=test turns on test-only checks) stay out of the portal's environment.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        (entry): entry is [string, string] => entry[1] !== undefined && !/^(NODE_ENV|VITEST|TEST_)/.test(entry[0]),
      ),
    );
    const child = spawn(process.execPath, [path.join(repositoryRoot, 'server', 'dist', 'main.js')], {
      cwd: repositoryRoot,
      env: { ...inherited, PORT: String(this.port), HOST: '127.0.0.1', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      this.output.splice(0, Math.max(0, this.output.length - 50));
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let gone = false;
    void exited.then(() => (gone = true));
    await until(
      async () => {
        if (gone) throw new Error(`The portal exited while starting:\n${this.lastOutput()}`);
        const response = await fetch(`${this.url}/healthz`).catch(() => undefined);
        return response?.ok ?? false;
      },
      'the portal to answer /healthz',
      timeoutMs,
    );
  }

  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The process id while it runs (a benchmark reads its CPU time from /proc). */
  get pid(): number | undefined {
    return this.alive ? this.child?.pid : undefined;
  }

  /** SIGKILL: no shutdown of its own, requests in flight are cut off. Resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  lastOutput(): string {
    return this.output.join('\n');
  }
}

export interface MeasuredPortal {
  /** `http://127.0.0.1:<port>`, also the portal's PUBLIC_URL. */
  url: string;
  pid: number;
  config: Config;
  database: TestDatabase;
  /** A bearer token for a seeded user (admin, operator, operator2, enduser), signed with the process's keys. */
  token(userName: string): Promise<string>;
  /** The process's resident memory now and at its peak (VmRSS, VmHWM), in MB. */
  memory(): { rssMb: number; peakMb: number };
  /** The end of what the process wrote to stderr, for a failure's message. */
  errors(): string;
  stop(): Promise<void>;
}

function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

/**
 * The built portal (`server/dist/main.js`, rebuilt first when its sources changed) as a process of
 * its own, on a copy of the run's seeded template database, listening on a free loopback port, so
 * that what is measured (memory, latency) is the real server's. `load` fills the database before
 * the portal starts (on a connection without a statement timeout); `env` adds to the
 * configuration.
 */
export async function startMeasuredPortal(
  options: { env?: Record<string, string>; load?: (db: Db) => Promise<void> } = {},
): Promise<MeasuredPortal> {
  buildServer();
  const database = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-process-'));
  const cleanUp = async () => {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    if (options.load) {
      const loader = connect(database.url, 1);
      try {
        await options.load(loader);
      } finally {
        await loader.destroy();
      }
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      DEMO_SEED: 'true',
      DEMO_AGENT: 'false',
      ...options.env,
    };
    const child = spawn(process.execPath, [path.join(repositoryRoot, 'server', 'dist', 'main.js')], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killAfter = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killAfter);
      }
      await cleanUp();
    };
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) {
        await cleanUp();
        throw new Error(`The portal exited with ${child.exitCode}:\n${stderr}`);
      }
      const ready = await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`The portal did not answer /healthz within 60 s:\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const config = loadConfig(env);
    const minter = await openTokenMinter(config);
    const tokens = new Map<string, Promise<string>>();
    const pid = child.pid ?? 0;
    return {
      url,
      pid,
      config,
      database,
      token(userName) {
        const minted = tokens.get(userName) ?? mintAccessToken(minter, userName);
        tokens.set(userName, minted);
        return minted;
      },
      memory: () => memoryOf(pid),
      errors: () => stderr,
      stop: async () => {
        await minter.close();
        await stop();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
