import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { HEARTBEAT_METRICS } from '@cfs/contracts/fleet';
import type { AgentInventory } from '@cfs/contracts/agent';
import { DEMO } from '../../server/src/db/demo-ids.js';
import { hashCredential } from '../../server/src/auth/machine-callers.js';
import { startPrimary, type Cluster } from '../../server/test/postgres-cluster.js';
import { freePort, PortalProcess } from '../../server/test/processes.js';
import type { RecordFigure } from './fleet.js';

export interface FleetAgentsOptions {
  /** Simulated agents. */
  agents: number;
  /** Pieces of software in each agent's inventory. */
  software: number;
  /** How long the steady state (heartbeats and held configuration calls) is measured. */
  seconds: number;
}

/** Clock ticks of CPU time (user + system) of a process, and of its children that ended, from /proc/<pid>/stat. */
async function ticksOf(pid: number, withEnded: boolean): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const field = (index: number) => Number(fields[index - 3] ?? 0);
  return field(14) + field(15) + (withEnded ? field(16) + field(17) : 0);
}

/** The PostgreSQL server's CPU time: the postmaster, the backends it reaped, and the processes it runs now. */
async function databaseTicks(cluster: Cluster): Promise<number> {
  const postmaster = Number((await fs.readFile(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  let ticks = await ticksOf(postmaster, true);
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === postmaster) ticks += await ticksOf(Number(entry), false);
  }
  return ticks;
}

/** Clock ticks a second (USER_HZ): 100 on Linux. */
const TICKS_PER_SECOND = 100;

/** CPU seconds of the portal's process and of its database server while `work` runs. */
async function cpuDuring<T>(
  portal: PortalProcess,
  cluster: Cluster,
  work: () => Promise<T>,
): Promise<{ result: T; portal: number; database: number; seconds: number }> {
  const pid = portal.pid;
  if (pid === undefined) throw new Error('The portal is not running');
  const before = { portal: await ticksOf(pid, true), database: await databaseTicks(cluster), at: Date.now() };
  const result = await work();
  const after = { portal: await ticksOf(pid, true), database: await databaseTicks(cluster), at: Date.now() };
  return {
    result,
    portal: (after.portal - before.portal) / TICKS_PER_SECOND,
    database: (after.database - before.database) / TICKS_PER_SECOND,
    seconds: (after.at - before.at) / 1000,
  };
}

/** An inventory as a Debian server's agent reports it: `software` packages with versions and maintainers. */
function inventoryOf(software: number): AgentInventory {
  return {
    hardware: {
      cpuModel: 'Bench CPU 2.4 GHz',
      cores: 4,
      memoryBytes: 8 * 1024 ** 3,
      disks: [{ name: 'sda', sizeBytes: 256e9 }],
    },
    os: { name: 'Debian GNU/Linux', version: '12', build: '12.8', pendingPatches: 4 },
    software: Array.from({ length: software }, (_, index) => ({
      name: `package-${String(index).padStart(4, '0')}`,
      version: `${1 + (index % 7)}.${index % 13}.${index % 5}-1`,
      publisher: 'Debian Maintainers <maintainers@example.org>',
    })),
  };
}

/** Runs `task` for every item, `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

interface SimulatedAgent {
  deviceId: string;
  credential: string;
}

/** A call as an agent makes it, with its credential; anything but `expect` fails the part. */
async function call(
  url: string,
  agent: SimulatedAgent,
  init: { method?: string; body?: unknown; headers?: Record<string, string> },
  expect: readonly number[],
): Promise<Response> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${agent.credential}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (!expect.includes(response.status))
    throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
  return response;
}

/**
 * A fleet against one portal: `agents` simulated agents, each a device of Contoso with a credential
 * of its own, doing what a real agent does (agent/src/agent.ts) over HTTP against the built portal
 * (one process, ROLE=all) on a PostgreSQL server of its own: every agent's first inventory
 * report (enrolment), then the steady state — a heartbeat a minute each (the default interval) and
 * the configuration call held by the portal up to 20 s (`Prefer: wait=20`, with the last ETag), asked
 * again at once — for `seconds`, then the daily report of an unchanged inventory. The portal's
 * process and the database server's processes are timed from /proc: their CPU time per agent, the
 * steady state's against the same portal idle for as long.
 */
export async function fleetAgents(record: RecordFigure, options: FleetAgentsOptions): Promise<void> {
  const cluster = await startPrimary();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-bench-fleet-'));
  const portal = new PortalProcess(
    {
      DATABASE_URL: cluster.url(),
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://localhost:8080',
      LOG_LEVEL: 'warn',
      DEMO_AGENT: 'false',
      DEMO_SEED: 'true',
    },
    await freePort(),
  );
  try {
    await portal.start();
    const agents: SimulatedAgent[] = Array.from({ length: options.agents }, () => ({
      deviceId: randomUUID(),
      credential: `cfsd_${randomBytes(32).toString('base64url')}`,
    }));
    const db = new pg.Client({ connectionString: cluster.url() });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO device (device_id, tenant_id, subscription_id, name, machine_name, credential_hash, operating_system_id)
         SELECT id, $1, $2, 'fleet-' || lpad(n::text, 5, '0'), 'FLEET' || n, hash, 4
         FROM unnest($3::uuid[], $4::text[]) WITH ORDINALITY AS a(id, hash, n)`,
        [
          DEMO.contoso,
          DEMO.contosoProduction,
          agents.map((agent) => agent.deviceId),
          agents.map((agent) => hashCredential(agent.credential)),
        ],
      );
    } finally {
      await db.end();
    }
    const url = (route: string) => `${portal.url}${route}`;
    const inventory = inventoryOf(options.software);
    const report = (agent: SimulatedAgent) =>
      call(url('/v1/agent/inventory'), agent, { method: 'POST', body: inventory }, [200]).then(() => undefined);
    const scale = `${options.agents.toLocaleString('en-US')} agents`;

    // Enrolment: every agent's first inventory, as many at once as a fleet coming up sends them.
    const first = await cpuDuring(portal, cluster, () => eachLimited(agents, 16, report));
    // The steady state, against the portal idle for as long.
    const idle = await cpuDuring(
      portal,
      cluster,
      () => new Promise((resolve) => setTimeout(resolve, options.seconds * 1000)),
    );
    let heartbeats = 0;
    let configurationCalls = 0;
    const steady = await cpuDuring(portal, cluster, async () => {
      const until = Date.now() + options.seconds * 1000;
      await Promise.all(
        agents.map(async (agent, index) => {
          // Heartbeats a minute apart, the fleet's spread over the minute.
          const heartbeat = async () => {
            await new Promise((resolve) => setTimeout(resolve, (index / agents.length) * 60_000));
            while (Date.now() < until) {
              await call(
                url('/v1/packets'),
                agent,
                {
                  method: 'POST',
                  body: [
                    {
                      entityId: agent.deviceId,
                      timestamp: new Date().toISOString(),
                      message: {
                        Value: 12.5,
                        Properties: { BlockName: `FLEET${index}` },
                        Metrics: { [HEARTBEAT_METRICS.cpuPercent]: 12.5, [HEARTBEAT_METRICS.memoryPercent]: 40 },
                        States: {},
                        Diagnostics: {},
                      },
                    },
                  ],
                },
                [200],
              );
              heartbeats++;
              await new Promise((resolve) => setTimeout(resolve, 60_000));
            }
          };
          // The configuration call, held by the portal until something changes or 20 s pass.
          const configuration = async () => {
            let tag: string | undefined;
            while (Date.now() < until) {
              const answer = await call(
                url('/v1/agent/configuration'),
                agent,
                { headers: { prefer: 'wait=20', ...(tag ? { 'if-none-match': tag } : {}) } },
                [200, 304],
              );
              tag = answer.headers.get('etag') ?? tag;
              configurationCalls++;
            }
          };
          await Promise.race([
            Promise.all([heartbeat(), configuration()]),
            new Promise((resolve) => setTimeout(resolve, options.seconds * 1000 + 25_000)),
          ]);
        }),
      );
    });
    // The daily report of an inventory that changed nothing.
    const daily = await cpuDuring(portal, cluster, () => eachLimited(agents, 16, report));

    const perAgentMs = (cpu: { portal: number; database: number }) =>
      ((cpu.portal + cpu.database) * 1000) / options.agents;
    console.log(
      `  first inventory (${options.software} packages): ${first.seconds.toFixed(1)} s, portal ${first.portal.toFixed(1)} CPU s, database ${first.database.toFixed(1)} CPU s`,
    );
    console.log(
      `  steady state ${steady.seconds.toFixed(0)} s: ${heartbeats} heartbeats, ${configurationCalls} configuration calls; portal ${steady.portal.toFixed(2)} CPU s, database ${steady.database.toFixed(2)} CPU s (idle: ${idle.portal.toFixed(2)} + ${idle.database.toFixed(2)})`,
    );
    console.log(
      `  daily unchanged inventory: ${daily.seconds.toFixed(1)} s, portal ${daily.portal.toFixed(1)} CPU s, database ${daily.database.toFixed(1)} CPU s`,
    );
    // Cores busy (portal and database) while the fleet runs, against the same portal idle; and what
    // each agent costs above idle, a minute of its steady state.
    const cores = (cpu: { portal: number; database: number; seconds: number }) =>
      (cpu.portal + cpu.database) / cpu.seconds;
    const aboveIdle = (cores(steady) - cores(idle)) * 60_000;
    console.log(
      `  per agent above idle: ${(aboveIdle / options.agents).toFixed(1)} ms of CPU a minute (one core carries ${Math.floor(60_000 / (aboveIdle / options.agents)).toLocaleString('en-US')} agents)`,
    );
    record({
      name: `${scale}, steady state (a heartbeat a minute, configuration held 20 s): portal + database, % of a core`,
      value: cores(steady) * 100,
      unit: '%',
      baselineName: 'the same portal idle, % of a core',
      baseline: cores(idle) * 100,
    });
    record({
      name: `${scale}, steady state: the portal process alone, % of a core`,
      value: (steady.portal / steady.seconds) * 100,
      unit: '%',
      baselineName: 'the same portal idle, % of a core',
      baseline: (idle.portal / idle.seconds) * 100,
    });
    record({
      name: `${scale}, first inventory report (${options.software} packages): portal + database CPU per agent`,
      value: perAgentMs(first),
      unit: 'ms',
      baselineName: 'the daily report of an unchanged inventory',
      baseline: perAgentMs(daily),
    });
  } finally {
    await portal.kill();
    await cluster.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
