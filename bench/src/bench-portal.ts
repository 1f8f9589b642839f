import fs from 'node:fs/promises';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { timedGet, type ClientRequest } from './http-client.js';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/src/app.js';
import { mintAccessToken } from '../../server/src/auth/embedded/mint.js';
import { loadConfig } from '../../server/src/config.js';
import { connect, withDatabaseName, type Db } from '../../server/src/db/database.js';
import { openRuntime, type Runtime } from '../../server/src/runtime.js';

export interface BenchPortal {
  runtime: Runtime;
  /** Where the portal listens, e.g. http://127.0.0.1:41234. */
  address: string;
  /** Its public address (http://localhost:{port}), where a browser opens its pages and signs in. */
  publicUrl: string;
  app: FastifyInstance;
  token(user: string): Promise<string>;
  /** The HTTP client the benchmark's calls go through. */
  client: BenchClient;
  /** Keeps the connection of calls made from the portal's own thread (`getHere`). */
  here: http.Agent;
  label: string;
  close(): Promise<void>;
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A port no one listens on now, on the loopback address. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A portal for a benchmark: its own embedded PostgreSQL server, or a database of its own on the
 * server named by BENCH_DATABASE_URL, listening on a free port. `load` fills it before it listens,
 * through a connection of its own without the requests' statement timeout (a million rows take
 * longer to write than a request may run). `webDist` is the web app it serves (a build of the
 * benchmark's own), at the public address a browser signs in at.
 */
export async function openBenchPortal(
  load: (loader: { db: Db }) => Promise<void>,
  options: { webDist?: string } = {},
): Promise<BenchPortal> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-bench-'));
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const database = `cfs_bench_${process.pid}`;
  if (serverUrl) await onServer(serverUrl, `CREATE DATABASE ${database}`);
  const port = await freePort();
  const publicUrl = `http://localhost:${port}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'true',
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    // The ingestion figure posts with one tenant token as fast as the portal takes packets, beyond any script's limit.
    MACHINE_RATE_LIMIT_PER_MINUTE: '1000000',
    // The throughput figures load the portal as one caller on many connections, standing for many tenants.
    TENANT_CONCURRENT_READS: '64',
    ...(options.webDist ? { WEB_DIST: options.webDist } : {}),
    ...(serverUrl ? { DATABASE_URL: withDatabaseName(serverUrl, database) } : {}),
  });
  const runtime = await openRuntime(config);
  const close = async () => {
    await runtime.closeDatabase();
    if (serverUrl) await onServer(serverUrl, `DROP DATABASE ${database} WITH (FORCE)`);
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    const loader = connect(runtime.databaseUrl, 1);
    try {
      await load({ db: loader });
    } finally {
      await loader.destroy();
    }
    const app = await buildApp({
      ...runtime,
      ...(runtime.provider ? { provider: runtime.provider } : {}),
      logger: false,
    });
    const address = await app.listen({ port, host: '127.0.0.1' });
    const { keys, provider } = runtime;
    const client = startClient();
    const here = new http.Agent({ keepAlive: true, maxSockets: 1 });
    if (!keys || !provider) throw new Error('The benchmark needs the embedded identity provider');
    return {
      runtime,
      address,
      publicUrl,
      app,
      label: serverUrl ? 'PostgreSQL server' : 'embedded PostgreSQL',
      token: (user) => mintAccessToken({ config, keys, provider }, user),
      client,
      here,
      close: async () => {
        here.destroy();
        await client.close();
        await app.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** An HTTP call's answer and how long it took, timed by the client. */
export interface Answer {
  ms: number;
  body: string;
}

export interface LoadResult {
  requests: number;
  failures: number;
  seconds: number;
}

export interface BenchClient {
  /** One GET, timed by the client; conditional with `ifNoneMatch`. */
  get(url: string, token: string, ifNoneMatch?: string): Promise<Answer & { status: number; etag: string | undefined }>;
  /** `connections` kept-alive connections sending the same GET for `seconds`; answers other than `expect` (200) are failures. */
  load(
    url: string,
    token: string,
    connections: number,
    seconds: number,
    conditional?: { ifNoneMatch: string; expect: number },
  ): Promise<LoadResult>;
  /** POSTs every body (JSON text) once over `connections` kept-alive connections; answers other than 200 are failures. */
  postAll(
    url: string,
    token: string,
    connections: number,
    bodies: string[],
  ): Promise<LoadResult & { firstFailure?: string }>;
  close(): Promise<void>;
}

/**
 * The calls go out from a worker thread (http-client.ts), so the client's work neither waits on
 * nor slows the portal's event loop, as with a real caller.
 */
export function startClient(): BenchClient {
  const clientUrl = new URL('./http-client.ts', import.meta.url).href;
  // A worker does not inherit the TypeScript loader; it registers it before loading the client.
  const worker = new Worker(
    `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(clientUrl)}); })`,
    { eval: true },
  );
  // One request at a time: each answer settles the one that is waiting.
  let waiting: { resolve: (answer: unknown) => void; reject: (error: unknown) => void } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  worker.on('message', (answer: unknown) => {
    if (answer && typeof answer === 'object' && 'error' in answer) waiting?.reject(new Error(String(answer.error)));
    else waiting?.resolve(answer);
  });
  worker.on('error', (error) => waiting?.reject(error));
  const ask = <T>(request: ClientRequest): Promise<T> => {
    const answer = queue.then(
      () =>
        new Promise<T>((resolve, reject) => {
          waiting = { resolve: (value) => resolve(value as T), reject };
          worker.postMessage(request);
        }),
    );
    queue = answer.catch(() => undefined);
    return answer;
  };
  return {
    get: (url, token, ifNoneMatch) => ask({ kind: 'get', url, token, ...(ifNoneMatch ? { ifNoneMatch } : {}) }),
    load: (url, token, connections, seconds, conditional) =>
      ask({ kind: 'load', url, token, connections, seconds, ...conditional }),
    postAll: (url, token, connections, bodies) => ask({ kind: 'post-all', url, token, connections, bodies }),
    close: async () => {
      await worker.terminate();
    },
  };
}

/**
 * GETs a path as a user from the portal's own thread. Latency figures are taken this way: a call
 * from another thread pays, on a small virtual machine, for waking that thread's idle CPU twice
 * per call (~0.15 ms each on a 2-vCPU machine), which is the machine's cost, not the portal's; a caller on
 * another host never puts it on the portal. The same work is done either way.
 */
export async function getHere(portal: BenchPortal, token: string, pathAndQuery: string): Promise<Answer> {
  const answer = await timedGet(portal.here, `${portal.address}${pathAndQuery}`, token);
  if (answer.status !== 200)
    throw new Error(`GET ${pathAndQuery} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
  return { ms: answer.ms, body: answer.body };
}

/** GETs a path as a user: the answer's text and the time the client measured; anything but 200 throws. */
export async function get(portal: BenchPortal, token: string, pathAndQuery: string): Promise<Answer> {
  const answer = await portal.client.get(`${portal.address}${pathAndQuery}`, token);
  if (answer.status !== 200)
    throw new Error(`GET ${pathAndQuery} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
  return { ms: answer.ms, body: answer.body };
}
