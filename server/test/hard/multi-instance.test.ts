import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfiguration } from '@cfs/contracts/agent';
import { INSTALL_STATUSES } from '@cfs/contracts/fleet';
import { BUILT_IN_ACTIONS, LEFT_OPERANDS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { mintAccessToken, openTokenMinter } from '../../src/auth/embedded/mint.js';
import { loadConfig } from '../../src/config.js';
import { connect, type Db } from '../../src/db/database.js';
import { DEMO } from '../../src/db/demo-ids.js';
import { maintenanceEventsTask } from '../../src/engines/maintenance/tasks.js';
import { protocolEventsTask } from '../../src/engines/protocols/tasks.js';
import { expireMatchesTask, workUnitEventsTask } from '../../src/engines/rules/tasks.js';
import { enrolDeviceOverHttp } from '../agent-enrolment.js';
import { reportFigures } from '../figures.js';
import { freePort, spawnPortal, until, waitForHealth, type TestProcess } from '../processes.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';
import { multipart } from '../upload-helpers.js';

/*
 * Past one process: two api and two worker processes of the portal on one database. Rules, packets
 * and work units go in through both api instances; one worker is killed (SIGKILL) midway. Every
 * rule match, action run and timer period must happen exactly once, nothing lost.
 */

const ENTITIES = 30;
const PACKETS_PER_ENTITY = 4;
const WORK_UNITS = 32;
/** The recurring tasks that fire every 5 s: their periods while the test drove the portal. */
/** How long the endpoint takes to answer each call. */
const SINK_DELAY_MS = 500;
/** How long the timers are watched from the first packet: several 5 s periods, the kill among them. */
const WATCH_MS = 40_000;
const FIVE_SECOND_TASKS = [expireMatchesTask, workUnitEventsTask, maintenanceEventsTask, protocolEventsTask]
  .filter((task) => task.every === 5000)
  .map((task) => task.name);

let database: TestDatabase;
let db: Db;
let dataDir: string;
let sink: http.Server;
const arrivals: { key: string | undefined; body: string }[] = [];
/** While set, the endpoint holds the answer to a call whose body has this text, until released. */
let holdFor: { text: string; release?: () => void } | undefined;
const processes: TestProcess[] = [];
let api: string[] = [];
let workers: TestProcess[] = [];
let admin = '';

beforeAll(async () => {
  sink = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const key = request.headers['idempotency-key'];
      arrivals.push({ key: typeof key === 'string' ? key : undefined, body: Buffer.concat(chunks).toString('utf8') });
      // A slow endpoint: the workers hold runs in flight when one of them is killed.
      response.on('error', () => undefined);
      const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (holdFor && arrivals[arrivals.length - 1]?.body.includes(holdFor.text)) holdFor.release = answer;
      else setTimeout(answer, SINK_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const sinkPort = (sink.address() as AddressInfo).port;
  database = await createTestDatabase();
  db = connect(database.url, 4);
  await db.deleteFrom('worker_heartbeat').execute();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-multi-'));
  const env = {
    DATABASE_URL: database.url,
    PUBLIC_URL: 'http://portal.test',
    DEMO_SEED: 'true',
    OUTBOUND_ALLOW: `127.0.0.1:${sinkPort}`,
    // A killed worker's jobs are taken over 5 s later.
    JOB_LEASE_SECONDS: '5',
    // Package files in the database: the instances share nothing but it and the keys.
    FILE_STORE: 'database',
  };
  // Each process has a DATA_DIR of its own, as on machines of their own; the first instance makes
  // the signing and secrets keys, which the others are given (DATA_DIR/keys).
  const ownDataDir = async (name: string) => {
    const dir = path.join(dataDir, name);
    await fs.cp(path.join(dataDir, 'api-0', 'keys'), path.join(dir, 'keys'), { recursive: true });
    return dir;
  };
  const ports = [await freePort(), await freePort()];
  const first = spawnPortal({ ...env, DATA_DIR: path.join(dataDir, 'api-0'), ROLE: 'api', PORT: String(ports[0]) });
  processes.push(first);
  await waitForHealth(first, `http://127.0.0.1:${ports[0]}`);
  const second = spawnPortal({ ...env, DATA_DIR: await ownDataDir('api-1'), ROLE: 'api', PORT: String(ports[1]) });
  workers = [
    spawnPortal({ ...env, DATA_DIR: await ownDataDir('worker-0'), ROLE: 'worker' }),
    spawnPortal({ ...env, DATA_DIR: await ownDataDir('worker-1'), ROLE: 'worker' }),
  ];
  processes.push(second, ...workers);
  await waitForHealth(second, `http://127.0.0.1:${ports[1]}`);
  api = ports.map((port) => `http://127.0.0.1:${port}`);
  await until(
    async () => (await db.selectFrom('worker_heartbeat').select('worker_id').execute()).length === 2,
    'two workers',
    90_000,
  );
  const minter = await openTokenMinter(
    loadConfig({ ...env, DATA_DIR: path.join(dataDir, 'api-0'), LOG_LEVEL: 'silent' }),
  );
  try {
    admin = await mintAccessToken(minter, 'admin');
  } finally {
    await minter.close();
  }
}, 300_000);

afterAll(async () => {
  for (const process of processes) process.child.kill('SIGKILL');
  await Promise.all(processes.map((process) => process.exited()));
  await db?.destroy();
  await database?.drop();
  await new Promise((resolve) => sink?.close(resolve));
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

/** A call to instance `i` (of the two) as `token`, with a JSON body. */
async function call(i: number, method: string, url: string, token: string, body?: unknown) {
  const response = await fetch(`${api[i % api.length]}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} on instance ${i % api.length}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** A WorkUnit rule of Contoso matching each new unit whose title holds `marker`, running `action`. */
const newUnitRule = (
  name: string,
  marker: string,
  action: { ActionDefinitionId: string; Parameters: Record<string, string> },
) => ({
  name,
  ruleTypeId: RULE_TYPES.WorkUnit,
  tenantId: DEMO.contoso,
  matchLifetime: '01:00:00',
  conditions: [
    { Type: 0, LeftOperand: LEFT_OPERANDS.WorkUnitEvent.id, Operator: OPERATORS.Equals, RightOperand: 'OnNew' },
    { Type: 0, LeftOperand: LEFT_OPERANDS.WorkUnitTitle.id, Operator: OPERATORS.Contains, RightOperand: marker },
  ],
  matchActions: [action],
});

/** Kills `worker` (SIGKILL) as soon as the job table shows it running an action. */
async function killHoldingARun(worker: TestProcess | undefined) {
  if (!worker) throw new Error('no worker to kill');
  await until(
    async () =>
      (
        await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM job
          WHERE task IN ('rules.action', 'actions.run') AND state = 'running'
            AND locked_by IN (SELECT worker_id FROM worker_heartbeat WHERE pid = ${worker.child.pid})`.execute(db)
      ).rows[0]?.n !== 0,
    'the worker to hold an action run',
    30_000,
  );
  worker.child.kill('SIGKILL');
  await worker.exited();
}

const count = async (query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(db)).rows[0]?.n ?? 0;

let action: Record<string, unknown> = {};

describe('two api and two worker processes on one database', () => {
  it(
    'make every rule match, action run and timer period exactly once while a worker is killed midway',
    { timeout: 180_000 },
    async () => {
      const marker = randomUUID().slice(0, 8);
      // The action and the rules, each written through one instance and used by the other.
      action = await call(0, 'PUT', '/v1/actionDefinitions', admin, {
        name: `Sink ${marker}`,
        description: 'Counts the runs',
        actionDefinitionTypeId: 4,
        tenantId: DEMO.contoso,
        inputParameters: 'Kind',
        endpointUrl: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hook`,
        httpMethod: 'POST',
        headers: 'X-Source: cfs',
        body: '{"kind":"{Kind}"}',
      });
      const runSink = (kind: string) => ({
        ActionDefinitionId: String(action.actionDefinitionId),
        Parameters: { Kind: kind },
      });
      const packetRule = await call(1, 'PUT', '/v1/rules', admin, {
        name: `Down ${marker}`,
        ruleTypeId: RULE_TYPES.Ingestion,
        tenantId: DEMO.contoso,
        matchLifetime: '01:00:00',
        conditions: [
          { Type: 0, LeftOperand: LEFT_OPERANDS.Value.id, Operator: OPERATORS.Equals, RightOperand: `down-${marker}` },
        ],
        matchActions: [
          runSink('packet'),
          { ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } },
        ],
      });
      const unitRule = await call(0, 'PUT', '/v1/rules', admin, newUnitRule(`New ${marker}`, marker, runSink('unit')));
      const agentToken = String(
        (
          await call(1, 'PUT', '/v1/tokens', admin, {
            tenantId: DEMO.contoso,
            name: `Agents ${marker}`,
            lifetimeYears: 1,
          })
        ).generatedToken,
      );

      const drivenFrom = new Date();
      const entities = Array.from({ length: ENTITIES }, () => randomUUID());
      let sent = 0;
      for (let round = 0; round < PACKETS_PER_ENTITY; round += 1) {
        const at = new Date(Date.now() - (PACKETS_PER_ENTITY - round) * 1000).toISOString();
        await Promise.all(
          entities.map((entityId, i) =>
            call(i + round, 'POST', '/v1/packets', agentToken, [
              { entityId, timestamp: at, message: { Value: `down-${marker}`, Properties: { BlockName: `host ${i}` } } },
            ]),
          ),
        );
        // Midway, one worker dies with the runs it holds: killed once it is seen holding one.
        if (round === PACKETS_PER_ENTITY / 2) await killHoldingARun(workers[0]);
        const units = WORK_UNITS / PACKETS_PER_ENTITY;
        for (let i = 0; i < units; i += 1) {
          await call(sent + i, 'PUT', '/api/v1/workunits', admin, {
            workUnitId: -1,
            title: `Unit ${sent + i} ${marker}`,
            severityId: 1,
            stateId: 1,
            tenantId: DEMO.contoso,
            workUnitTypeId: WORK_UNIT_TYPES.Incident,
          });
        }
        sent += units;
      }
      const killedAt = Date.now();

      const matchesOf = (ruleId: unknown) =>
        count(sql<{ n: number }>`SELECT count(*)::int AS n FROM rule_match WHERE rule_id = ${String(ruleId)}`);
      const runs = () =>
        count(
          sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM action_history WHERE action_definition_id = ${String(action.actionDefinitionId)}`,
        );
      const expectedRuns = ENTITIES + sent;
      await until(async () => (await runs()) >= expectedRuns, `${expectedRuns} action runs`, 120_000);
      const recovered = (Date.now() - killedAt) / 1000;
      // Longer, for the timers to pass several periods after the kill (and anything run twice to show).
      await until(() => Date.now() >= drivenFrom.getTime() + WATCH_MS, 'the timers to run', WATCH_MS + 5000);
      const takenOver = await count(
        sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM job WHERE task IN ('rules.action', 'actions.run') AND attempts > 1 AND created >= ${drivenFrom}`,
      );

      const packetMatches = await matchesOf(packetRule.ruleId);
      const unitMatches = await matchesOf(unitRule.ruleId);
      const history = await db
        .selectFrom('action_history')
        .select(['job_key', 'result_status_id'])
        .where('action_definition_id', '=', String(action.actionDefinitionId))
        .execute();
      const keys = new Set(history.map((row) => row.job_key));
      const arrived = arrivals.filter((arrival) => arrival.body.includes('"kind"'));
      const arrivedKeys = new Set(arrived.map((arrival) => arrival.key));
      const neverArrived = [...keys].filter((key) => !arrivedKeys.has(key ?? undefined)).length;
      const unknownArrivals = arrived.filter((arrival) => !arrival.key || !keys.has(arrival.key)).length;
      // Every period of the 5 s timers while the portal was driven: one job each, and it ran to the end
      // (the event readers' jobs started by a transaction's notification, keyed wake:, are not periods).
      const periods = await db
        .selectFrom('job')
        .select(['task', 'run_at', 'state'])
        .where('task', 'in', FIVE_SECOND_TASKS)
        .where('key', 'like', 'every:%')
        .where('run_at', '>=', new Date(drivenFrom.getTime() + 5000))
        .where('run_at', '<', new Date(Date.now() - 10_000))
        .execute();
      const perPeriod = new Map<string, number>();
      for (const row of periods)
        perPeriod.set(
          `${row.task} ${row.run_at.toISOString()}`,
          (perPeriod.get(`${row.task} ${row.run_at.toISOString()}`) ?? 0) + 1,
        );
      const span = Math.floor((Date.now() - 10_000 - (drivenFrom.getTime() + 5000)) / 5000);
      const missedPeriods = FIVE_SECOND_TASKS.reduce(
        (missed, task) => missed + Math.max(0, span - periods.filter((row) => row.task === task).length),
        0,
      );

      const figures = {
        'api instances': 2,
        workers: 2,
        'workers killed': 1,
        'rule matches': packetMatches + unitMatches,
        'duplicate matches': packetMatches - ENTITIES + (unitMatches - sent),
        'action runs': history.length,
        'runs not successful': history.filter((row) => row.result_status_id !== 1).length,
        'runs never received': neverArrived,
        'calls outside a run': unknownArrivals,
        'timer periods': perPeriod.size,
        'periods fired more than once': [...perPeriod.values()].filter((n) => n > 1).length,
        'periods missed': missedPeriods,
        'periods not done': periods.filter((row) => row.state !== 'done').length,
        'runs taken over from the killed worker': takenOver,
        'recovery s': recovered.toFixed(1),
      };
      reportFigures('many instances', figures);
      expect(packetMatches).toBe(ENTITIES);
      expect(unitMatches).toBe(sent);
      expect(history).toHaveLength(expectedRuns);
      expect(keys.size).toBe(expectedRuns);
      expect(figures['runs not successful']).toBe(0);
      expect(neverArrived).toBe(0);
      expect(unknownArrivals).toBe(0);
      expect(figures['periods fired more than once']).toBe(0);
      expect(missedPeriods).toBe(0);
      expect(figures['periods not done']).toBe(0);
      // The kill caught runs in flight, and they were done by the other worker once their lease ran out.
      expect(takenOver).toBeGreaterThan(0);
      expect(FIVE_SECOND_TASKS).toHaveLength(4);
      expect(perPeriod.size).toBeGreaterThanOrEqual(FIVE_SECOND_TASKS.length * 4);
    },
  );

  it('a worker that is stopped finishes the action run in hand before it exits', { timeout: 120_000 }, async () => {
    const marker = randomUUID().slice(0, 8);
    holdFor = { text: `stop-${marker}` };
    await call(
      1,
      'PUT',
      '/v1/rules',
      admin,
      newUnitRule(`Stop ${marker}`, marker, {
        ActionDefinitionId: String(action.actionDefinitionId),
        Parameters: { Kind: `stop-${marker}` },
      }),
    );
    await call(0, 'PUT', '/api/v1/workunits', admin, {
      workUnitId: -1,
      title: `Stopping ${marker}`,
      severityId: 1,
      stateId: 1,
      tenantId: DEMO.contoso,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
    });
    // The one worker left is holding the run: the endpoint has its call and has not answered.
    await until(() => holdFor?.release !== undefined, 'the run to reach the endpoint', 60_000);
    const worker = workers[1];
    if (!worker) throw new Error('no worker');
    worker.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(worker.child.exitCode).toBeNull();
    holdFor.release?.();
    expect(await worker.exited()).toBe(0);
    const jobs = await db
      .selectFrom('job')
      .select(['state', 'attempts'])
      .where('task', '=', 'rules.action')
      .where(sql<boolean>`payload::text LIKE ${`%stop-${marker}%`}`)
      .execute();
    expect(jobs).toEqual([{ state: 'done', attempts: 1 }]);
    holdFor = undefined;
  });

  it(
    'a package version uploaded through one api instance is downloaded by a device through the other',
    { timeout: 60_000 },
    async () => {
      const apiToken = String(
        (await call(0, 'PUT', '/v1/tokens', admin, { tenantId: DEMO.contoso, name: 'Agents', lifetimeYears: 1 }))
          .generatedToken,
      );
      const device = await enrolDeviceOverHttp(api[1]!, {
        adminToken: admin,
        apiToken,
        subscriptionId: DEMO.contosoProduction,
      });
      const pkg = await call(0, 'PUT', '/v1/packages', admin, {
        name: `Shared ${randomUUID().slice(0, 6)}`,
        packageTypeId: 3,
        tenantId: DEMO.contoso,
        operatingSystemRidsId: [4],
      });
      const content = randomBytes(3 * 1024 * 1024 + 7);
      const form = multipart(
        { packageId: String(pkg.packageId), version: '1.0.0', label: 'Shared' },
        { fileName: 'shared.zip', content },
      );
      const uploaded = await fetch(`${api[0]}/v1/packages/upload`, {
        method: 'POST',
        headers: { ...form.headers, authorization: `Bearer ${admin}` },
        body: form.payload,
      });
      expect(uploaded.status, await uploaded.clone().text()).toBe(200);
      const version = (await uploaded.json()) as { packageVersionId: string };
      // Wanted on the device (as the devices screen's install does).
      await db
        .insertInto('device_installation')
        .values({
          device_id: device.deviceId,
          package_id: String(pkg.packageId),
          tenant_id: DEMO.contoso,
          package_version_id: version.packageVersionId,
          install_status_id: INSTALL_STATUSES.Pending,
        })
        .execute();
      const deviceCall = (url: string) =>
        fetch(url.startsWith('http') ? url : `${api[1]}${url}`, {
          headers: { authorization: `Bearer ${device.credential}` },
        });
      const configuration = (await (await deviceCall('/v1/agent/configuration')).json()) as AgentConfiguration;
      const wanted = configuration.packages.find((item) => item.packageVersionId === version.packageVersionId);
      expect(wanted).toBeDefined();
      const download = await deviceCall(new URL(wanted!.downloadUrl).pathname);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
      // Neither instance has a copy of its own: the file is in the database only.
      for (const name of ['api-0', 'api-1']) await expect(fs.stat(path.join(dataDir, name, 'files'))).rejects.toThrow();
    },
  );
});
