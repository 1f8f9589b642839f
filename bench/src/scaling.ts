import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { DEMO } from '../../server/src/db/demo-ids.js';
import { mintAccessToken, openTokenMinter } from '../../server/src/auth/embedded/mint.js';
import { loadConfig } from '../../server/src/config.js';
import { startPrimary, startReplica, type Cluster } from '../../server/test/postgres-cluster.js';
import { freePort, PortalProcess } from '../../server/test/processes.js';
import type { RecordFigure } from './fleet.js';

export interface ScalingOptions {
  /** How long each load runs. */
  seconds: number;
  /** Connections of the list load (split over the instances). */
  connections: number;
  /** Packets per POST /v1/packets. */
  batch: number;
}

/** Busy and total CPU time of the machine (jiffies, all cores), from /proc/stat. */
async function cpuTimes(): Promise<{ busy: number; total: number }> {
  const line = (await fs.readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** Runs `work` and says how many cores were busy meanwhile, on average (this machine's whole load). */
async function busyCores<T>(work: () => Promise<T>): Promise<{ result: T; cores: number }> {
  const before = await cpuTimes();
  const result = await work();
  const after = await cpuTimes();
  return { result, cores: ((after.busy - before.busy) / Math.max(1, after.total - before.total)) * os.cpus().length };
}

/** A portal process of the built server (`npm run build`), ready once /healthz answers. */
async function startInstance(env: Record<string, string>): Promise<PortalProcess> {
  const instance = new PortalProcess(
    { LOG_LEVEL: 'warn', DEMO_AGENT: 'false', DEMO_SEED: 'true', ...env },
    await freePort(),
  );
  await instance.start();
  return instance;
}

async function stopInstances(instances: readonly PortalProcess[]): Promise<void> {
  await Promise.all(instances.map((instance) => instance.kill()));
}

function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** A batch of heartbeats from `entities`, stamped now (each request's own: none is a re-sent packet). */
function packetBatch(entities: readonly string[], batch: number, sequence: number): string {
  const now = Date.now();
  return JSON.stringify(
    Array.from({ length: batch }, (_, i) => {
      const cpu = (sequence * batch + i) % 100;
      return {
        entityId: entities[(sequence * batch + i) % entities.length],
        timestamp: new Date(now - batch + i).toISOString(),
        message: {
          Value: cpu,
          Properties: { BlockName: 'bench' },
          Metrics: { CpuPercent: cpu, MemoryPercent: 50 },
          States: { Agent: 'Running' },
          Diagnostics: {},
        },
      };
    }),
  );
}

/**
 * Past one process: the list API and packet ingestion with 1, 2 and 4 api instances (ROLE=api,
 * the built server) against one PostgreSQL server, each reported per busy core of this machine
 * (whose 2 cores also run the database and the load), against one instance; and the read replica's
 * effect on a list's latency while packets stream in: DATABASE_READ_URL on ÷ off. The database is
 * a PostgreSQL server of the system's packages started for this part, with a streaming replica.
 */
export async function scaling(record: RecordFigure, options: ScalingOptions): Promise<void> {
  const primary: Cluster = await startPrimary();
  let replica: Cluster | undefined;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-bench-scaling-'));
  const publicUrl = 'http://localhost:8080';
  const env = { DATABASE_URL: primary.url(), DATA_DIR: dataDir, PUBLIC_URL: publicUrl };
  try {
    // The first instance migrates and seeds; the others share its DATA_DIR (signing keys) and database.
    const first = await startInstance(env);
    const minter = await openTokenMinter(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const admin = await mintAccessToken(minter, 'admin').finally(() => minter.close());
    const grant = await fetch(`${first.url}/v1/tokens`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId: DEMO.contoso, name: 'Bench agents', lifetimeYears: 1 }),
    });
    const agentToken = ((await grant.json()) as { generatedToken: string }).generatedToken;
    const entities = Array.from({ length: 2_000 }, () => randomUUID());
    let sequence = 0;
    const ingestLoad = (url: string, seconds: number, connections: number) =>
      load({
        url: `${url}/v1/packets`,
        connections,
        duration: seconds,
        method: 'POST',
        headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
        requests: [
          { setupRequest: (request) => ({ ...request, body: packetBatch(entities, options.batch, sequence++) }) },
        ],
      });
    const listLoad = (url: string, seconds: number, connections: number) =>
      load({
        url: `${url}/v1/tenants?$top=10&$count=true`,
        connections,
        duration: seconds,
        headers: { authorization: `Bearer ${admin}` },
      });
    /** One load per instance at once (as a balancer spreads it): requests per second and refusals, summed. */
    const onEvery = async (urls: readonly string[], run: (url: string) => Promise<autocannon.Result>) => {
      const results = await Promise.all(urls.map(run));
      return {
        rate: results.reduce((sum, result) => sum + result.requests.average, 0),
        refused: results.reduce((sum, result) => sum + result.non2xx, 0),
      };
    };
    // Warm-up: every entity reports once, every statement is planned.
    await ingestLoad(first.url, 2, 4);
    await listLoad(first.url, 2, 4);

    const perCore: Record<number, { list: number; packets: number }> = {};
    const instances: PortalProcess[] = [first];
    for (const count of [1, 2, 4]) {
      while (instances.length < count) instances.push(await startInstance({ ...env, ROLE: 'api' }));
      const urls = instances.map((instance) => instance.url);
      const connections = Math.max(4, Math.ceil(options.connections / count));
      const list = await busyCores(() => onEvery(urls, (url) => listLoad(url, options.seconds, connections)));
      const ingest = await busyCores(() => onEvery(urls, (url) => ingestLoad(url, options.seconds, 4)));
      if (list.result.refused > 0 || ingest.result.refused > 0)
        throw new Error(`Refused: ${list.result.refused} list calls, ${ingest.result.refused} batches`);
      const listRate = list.result.rate;
      const packetRate = ingest.result.rate * options.batch;
      perCore[count] = { list: listRate / list.cores, packets: packetRate / ingest.cores };
      console.log(
        `    ${count} api instance(s): list ${listRate.toFixed(0)} req/s on ${list.cores.toFixed(2)} busy cores, ingestion ${packetRate.toFixed(0)} packets/s on ${ingest.cores.toFixed(2)} busy cores`,
      );
      const one = perCore[1];
      if (!one) throw new Error('no single-instance figure');
      record({
        name: `GET /v1/tenants?$top=10&$count=true, ${count} api instance(s): req/s per busy core`,
        value: perCore[count].list,
        unit: 'req/s/core',
        baselineName: '1 instance',
        baseline: one.list,
      });
      record({
        name: `POST /v1/packets (batches of ${options.batch}), ${count} api instance(s): packets/s per busy core`,
        value: perCore[count].packets,
        unit: 'packets/s/core',
        baselineName: '1 instance',
        baseline: one.packets,
      });
    }
    await stopInstances(instances);

    // The replica: one instance's list latency while packets stream in through it, without and with DATABASE_READ_URL.
    replica = await startReplica(primary);
    const latencyUnderIngestion = async (extra: Record<string, string>) => {
      const instance = await startInstance({ ...env, ...extra });
      try {
        await listLoad(instance.url, 1, 2);
        const [list] = await Promise.all([
          listLoad(instance.url, options.seconds, 4),
          ingestLoad(instance.url, options.seconds, 4),
        ]);
        return list.latency;
      } finally {
        await stopInstances([instance]);
      }
    };
    const without = await latencyUnderIngestion({});
    const withReplica = await latencyUnderIngestion({ DATABASE_READ_URL: replica.url() });
    record({
      name: 'tenants list under ingestion load, read replica on: p50',
      value: withReplica.p50,
      unit: 'ms',
      baselineName: 'replica off',
      baseline: without.p50,
    });
    record({
      name: 'tenants list under ingestion load, read replica on: p99',
      value: withReplica.p99,
      unit: 'ms',
      baselineName: 'replica off',
      baseline: without.p99,
    });
  } finally {
    await replica?.stop();
    await primary.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
