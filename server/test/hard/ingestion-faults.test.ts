import { fork, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnrolmentResult } from '@cfs/contracts/agent';
import { PortalClient } from '../../../agent/src/portal-client.js';
import { prepareDemoAgent } from '../../src/areas/agent/demo-agent.js';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/database.js';
import { startEmbeddedServer, type EmbeddedServer } from '../../src/db/embedded-server.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seed } from '../../src/db/seed.js';
import { reportFigures } from '../figures.js';
import { SEQUENCE_METRIC, type StreamerCommand, type StreamerReport } from './packet-stream.js';
import { PortalProcess, buildServer, freePort, repositoryRoot, until } from '../processes.js';

/**
 * Ingestion under faults (issue 15): while an agent streams numbered packets through its outbox,
 * the portal is killed with SIGKILL 20 times and its PostgreSQL server is stopped in immediate
 * mode (as in a crash) and started again 5 times. Every packet the portal acknowledged must be
 * stored, none twice (a batch whose commit the kill cut off from its answer is sent again), and
 * the agent's outbox must empty after every outage. The suite runs a PostgreSQL server of its own.
 */

const PORTAL_KILLS = 20;
const DATABASE_RESTARTS = 5;
/** Every fifth outage is the database's. */
const OUTAGES = Array.from({ length: PORTAL_KILLS + DATABASE_RESTARTS }, (_, index) =>
  index % 5 === 4 ? 'database' : 'portal',
);
/** A packet every 10 ms: a batch is nearly always on its way when a fault strikes. */
const STREAM_INTERVAL_MS = 10;
/** The longest an outbox may take to empty after a restart: the agent's backoff after a few failures, and the backlog. */
const DRAIN_TIMEOUT_MS = 60_000;

interface Outage {
  kind: 'portal' | 'database';
  /** When the portal or the database was started again. */
  restartAt: number;
  firstAcknowledgedAt: number | undefined;
  drainedAt: number | undefined;
  /** The most items the outbox held during the outage. */
  backlog: number;
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-ingest-faults-'));
const clusterDir = path.join(workDir, 'postgres');
const keysDir = path.join(workDir, 'keys');
let database: EmbeddedServer;
let portal: PortalProcess;
let streamer: ChildProcess | undefined;
/** The device the streaming agent enrols as: its agent key's folder and its tenant token. */
let agent: { dataDir: string; token: string };

const startDatabase = () => startEmbeddedServer({ clusterDir, keysDir });

/** Stops the suite's PostgreSQL server as a crash would (immediate mode: no checkpoint, recovery from the WAL at the next start). */
async function crashDatabase(): Promise<void> {
  const pid = Number.parseInt(
    fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0] ?? '',
    10,
  );
  process.kill(pid, 'SIGQUIT');
  await until(() => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }, 'the database server to stop');
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const seconds = (ms: number) => Math.round(ms / 100) / 10;

beforeAll(async () => {
  buildServer();
  database = await startDatabase();
  const url = database.url('postgres');
  const setup = connect(url, 2);
  const port = await freePort();
  const portalDir = path.join(workDir, 'portal');
  let prepared: typeof agent | undefined;
  try {
    await migrateToLatest(setup);
    await seed(setup, { demo: true, localUsers: true });
    // The demo's agent device and its tenant token: a device of Contoso that enrols like any agent.
    prepared = await prepareDemoAgent(
      setup,
      loadConfig({ DATA_DIR: portalDir, DATABASE_URL: url, PORT: String(port) }),
    );
  } finally {
    await setup.destroy();
  }
  if (!prepared) throw new Error('The demo tenants were not seeded');
  agent = prepared;
  portal = new PortalProcess(
    { DATABASE_URL: url, DATA_DIR: portalDir, DEMO_SEED: 'false', DEMO_AGENT: 'false', LOG_LEVEL: 'warn' },
    port,
  );
  await portal.start();
});

afterAll(async () => {
  streamer?.kill('SIGKILL');
  await portal?.kill();
  await database?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('ingestion under faults', () => {
  it('stores every acknowledged packet once through 20 portal kills and 5 database crashes, and the agent outbox empties after each', async () => {
    const { agentKey } = JSON.parse(fs.readFileSync(path.join(agent.dataDir, 'identity.json'), 'utf8')) as {
      agentKey: string;
    };
    const enrolled = await new PortalClient(portal.url, 'cfs-agent/ingestion-faults').json<EnrolmentResult>(
      'POST',
      '/v1/agent/enrol',
      agent.token,
      {
        agentKey,
        machineName: 'ingestion-faults',
        operatingSystem: process.platform,
        architecture: process.arch,
      },
    );
    if (enrolled?.status !== 'enrolled') throw new Error('The agent was not enrolled');

    const acknowledged = new Set<number>();
    const acknowledgements: { at: number; stored: number; count: number }[] = [];
    const drains: { at: number; largest: number }[] = [];
    let finished: number | undefined;
    const agentDir = path.join(workDir, 'agent');
    const child = fork(path.join(import.meta.dirname, 'packet-streamer.ts'), [], {
      cwd: repositoryRoot,
      execArgv: ['--conditions=source', '--import', 'tsx'],
      env: {
        PATH: process.env.PATH ?? '',
        STREAM_PORTAL: portal.url,
        STREAM_CREDENTIAL: enrolled.credential,
        STREAM_DEVICE: enrolled.deviceId,
        STREAM_DIR: agentDir,
        STREAM_INTERVAL_MS: String(STREAM_INTERVAL_MS),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    streamer = child;
    child.on('message', (message: StreamerReport) => {
      if (message.kind === 'acknowledged') {
        for (const sequence of message.sequences) acknowledged.add(sequence);
        acknowledgements.push({ at: message.at, stored: message.stored, count: message.sequences.length });
      } else if (message.kind === 'drained') drains.push({ at: message.at, largest: message.largest });
      else finished = message.made;
    });
    const command = (message: StreamerCommand) => child.send(message);

    const outages: Outage[] = [];
    for (const kind of OUTAGES) {
      // Streaming for a while (a random number of batches, then part of a packet's interval) puts the fault at a random point of a request.
      const flowing = acknowledgements.length + randomInt(5, 30);
      await until(() => acknowledgements.length >= flowing, 'the stream to flow');
      await new Promise((resolve) => setTimeout(resolve, randomInt(0, STREAM_INTERVAL_MS)));

      if (kind === 'portal') await portal.kill();
      else await crashDatabase();
      const drainsBefore = drains.length;
      command({ kind: 'watch-drain' });
      const restartAt = Date.now();
      if (kind === 'portal') await portal.start();
      else database = await startDatabase();

      const outage: Outage = { kind, restartAt, firstAcknowledgedAt: undefined, drainedAt: undefined, backlog: 0 };
      outages.push(outage);
      const drained = await until(
        () => drains.length > drainsBefore,
        `the outbox to empty after ${kind} outage ${outages.length}`,
        DRAIN_TIMEOUT_MS,
      ).then(
        () => true,
        () => false,
      );
      outage.firstAcknowledgedAt = acknowledgements.find((entry) => entry.at >= restartAt)?.at;
      if (!drained) {
        console.error(
          `The outbox did not empty after ${kind} outage ${outages.length}; the portal ${portal.alive ? 'runs' : 'is gone'}, its last output:\n${portal.lastOutput()}`,
        );
        break;
      }
      outage.drainedAt = drains[drainsBefore]!.at;
      outage.backlog = drains[drainsBefore]!.largest;
    }

    command({ kind: 'finish' });
    await until(() => finished !== undefined, 'the agent to send what it holds', DRAIN_TIMEOUT_MS).catch(
      () => undefined,
    );
    const made = finished ?? Math.max(0, ...acknowledged);

    const check = connect(database.url('postgres'), 2);
    const stored = await sql<{ sequence: number; copies: number }>`
      SELECT (message -> 'Metrics' ->> ${SEQUENCE_METRIC})::int AS sequence, count(*)::int AS copies
      FROM packet WHERE entity_id = ${enrolled.deviceId}::uuid
      GROUP BY 1`
      .execute(check)
      .finally(() => check.destroy());
    const copies = new Map(stored.rows.map((row) => [row.sequence, row.copies]));

    const missing = [...acknowledged].filter((sequence) => !copies.has(sequence)).length;
    const duplicates = stored.rows.reduce((sum, row) => sum + row.copies - 1, 0);
    const drainedOutages = outages.filter((outage) => outage.drainedAt !== undefined);
    const recoveries = drainedOutages.map((outage) => outage.drainedAt! - outage.restartAt);
    const firstAcknowledgements = outages.flatMap((outage) =>
      outage.firstAcknowledgedAt === undefined ? [] : [outage.firstAcknowledgedAt - outage.restartAt],
    );
    // A batch answered with fewer new packets than it carried was sent again after a commit whose answer a fault cut off.
    const resentStored = acknowledgements.filter((entry) => entry.stored < entry.count).length;

    reportFigures('ingestion under faults', {
      packets: made,
      'portal kills': outages.filter((outage) => outage.kind === 'portal').length,
      'database restarts': outages.filter((outage) => outage.kind === 'database').length,
      'acknowledged but missing': missing,
      duplicates,
      'never acknowledged': made - acknowledged.size,
      'never stored': made - copies.size,
      'buffer drained after each outage': `${drainedOutages.length}/${OUTAGES.length}`,
      'recovery median s': recoveries.length ? seconds(median(recoveries)) : '-',
      'recovery max s': recoveries.length ? seconds(Math.max(...recoveries)) : '-',
      'first acknowledgement median s': firstAcknowledgements.length ? seconds(median(firstAcknowledgements)) : '-',
      'largest backlog': Math.max(0, ...outages.map((outage) => outage.backlog)),
      're-sent batches already stored': resentStored,
    });

    expect(missing).toBe(0);
    expect(duplicates).toBe(0);
    expect(drainedOutages.length).toBe(OUTAGES.length);
    expect(outages.filter((outage) => outage.kind === 'portal').length).toBe(PORTAL_KILLS);
    expect(outages.filter((outage) => outage.kind === 'database').length).toBe(DATABASE_RESTARTS);
    // Nothing was left behind or dropped by the agent: every packet it made was acknowledged in the end.
    expect(finished).toBeDefined();
    expect(acknowledged.size).toBe(made);
    expect(copies.size).toBe(made);
  });
});
