import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { ALL_TENANTS } from '../../src/auth/tenant-scope.js';
import { connect, type Db } from '../../src/db/database.js';
import { scoped } from '../../src/db/scoped.js';
import { DEMO } from '../../src/db/demo-ids.js';
import { actionRunTask, enqueueActionRun } from '../../src/engines/actions/runner.js';
import { TEST_TASK_TABLES, tickTask } from '../fixtures/test-tasks.js';
import { reportFigures } from '../figures.js';
import { spawnFixtureWorker, spawnPortal, until, type TestProcess } from '../processes.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

/*
 * Jobs under faults: three worker processes of the portal (ROLE=worker) run 1,000 action runs
 * against an HTTP endpoint of the test's own, and one of them is killed (SIGKILL) while the
 * endpoint holds requests it sent. The endpoint is a receiver that applies each Idempotency-Key
 * once, as the action runner's contract asks of receivers: a run that reaches it under no key, or
 * under two, takes effect twice (a duplicate side effect); a run whose effect it never applied was
 * never run. Recovery is the time from the kill until the jobs the killed worker held were done
 * by the others. Then three job worker processes run a recurring task of a short period, which
 * must fire once per period.
 */

const RUNS = 1000;
const WORKERS = 3;
/** The endpoint stops answering once this many runs arrived, so every worker is caught holding requests. */
const HOLD_AT = Math.floor(RUNS / 3);
const TIMER_PERIODS = 12;

interface Arrival {
  key: string | undefined;
  run: string;
}

let database: TestDatabase;
let db: Db;
let dataDir: string;
let sink: http.Server;
const arrivals: Arrival[] = [];
const runsArrived = new Set<string>();
/** The answers the endpoint holds, by run. */
const held = new Map<string, () => void>();
let holding = true;
const workers: TestProcess[] = [];
const tickers: ChildProcess[] = [];

beforeAll(async () => {
  sink = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { run } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { run: string };
      const key = request.headers['idempotency-key'];
      arrivals.push({ key: typeof key === 'string' ? key : undefined, run });
      runsArrived.add(run);
      // A killed worker's connection is gone: its answer has nowhere to go.
      response.on('error', () => undefined);
      const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      if (holding && runsArrived.size >= HOLD_AT) held.set(run, answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  database = await createTestDatabase();
  db = connect(database.url, 4);
  for (const statement of TEST_TASK_TABLES) await sql.raw(statement).execute(db);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-jobs-faults-'));
});

afterAll(async () => {
  for (const worker of workers) worker.child.kill('SIGKILL');
  for (const ticker of tickers) ticker.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.exited()));
  await db?.destroy();
  await database?.drop();
  for (const answer of held.values()) answer();
  sink?.closeAllConnections();
  await new Promise((resolve) => sink?.close(resolve));
  await fs.rm(dataDir, { recursive: true, force: true });
});

const count = async (query: RawBuilder<{ n: number }>) => Number((await query.execute(db)).rows[0]?.n ?? 0);
/** A portal worker names itself `host:pid:random` in job.locked_by. */
const heldBy = (pid: number) => `%:${pid}:%`;

async function runActionsUnderFaults() {
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const action = await scoped(db, ALL_TENANTS)
    .insertInto('action_definition', {
      name: 'Fault sink',
      action_definition_type_id: 4,
      tenant_id: DEMO.contoso,
      endpoint_url: `${sinkUrl}/effect`,
      http_method: 'POST',
      headers: null,
      body: '{"run":"{Run}"}',
    })
    .returning('action_definition_id')
    .executeTakeFirstOrThrow();

  for (let i = 0; i < WORKERS; i++) {
    // OUTBOUND_ALLOW names exactly the sink: the guard refuses every other loopback address.
    workers.push(
      spawnPortal({
        ROLE: 'worker',
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        DEMO_SEED: 'false',
        OUTBOUND_ALLOW: new URL(sinkUrl).host,
      }),
    );
  }
  const listening = () =>
    count(
      sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN job_enqueued'`,
    );
  await until(
    async () => {
      const exited = workers.find((worker) => worker.child.exitCode !== null);
      if (exited) throw new Error(`A worker exited:\n${exited.output()}`);
      return (await listening()) === WORKERS;
    },
    'three workers listening for jobs',
    120_000,
  );

  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < RUNS; i++) {
      await enqueueActionRun(
        trx,
        {
          actionDefinitionId: action.action_definition_id,
          tenantId: DEMO.contoso,
          parameters: { Run: String(i) },
          origin: { kind: 'test', messageId: randomUUID(), triggeredBy: 'jobs-faults' },
        },
        `jobs-faults:${i}`,
      );
    }
  });

  const [doomed] = workers;
  const doomedPid = doomed?.child.pid;
  if (!doomed || doomedPid === undefined) throw new Error('no worker to kill');
  const doomedRunning = async () =>
    (
      await sql<{
        key: string;
        run: string;
      }>`SELECT key, payload->'parameters'->>'Run' AS run FROM job WHERE task = ${actionRunTask.name} AND state = 'running' AND locked_by LIKE ${heldBy(doomedPid)}`.execute(
        db,
      )
    ).rows;
  // Midway: the endpoint holds its answers, and the doomed worker has requests in flight there. It
  // may hold more jobs than it runs at once (it claims ahead): those die with it unstarted, and are
  // taken over like the others once their lease runs out.
  await until(
    async () => (await doomedRunning()).some(({ run }) => held.has(run)),
    'the doomed worker to have requests at the endpoint',
    120_000,
  );
  doomed.child.kill('SIGKILL');
  const killedAt = Date.now();
  await doomed.exited();
  const orphaned = (await doomedRunning()).map(({ key }) => key);
  holding = false;
  for (const answer of held.values()) answer();
  held.clear();

  await until(
    async () =>
      (await count(
        sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM job WHERE task = ${actionRunTask.name} AND state IN ('done', 'failed')`,
      )) === RUNS,
    'every run to finish',
    180_000,
  );
  const recovered = await sql<{
    last: Date | null;
  }>`SELECT max(finished) AS last FROM job WHERE task = ${actionRunTask.name} AND key = ANY(${orphaned}::text[])`.execute(
    db,
  );
  const recoveredAt = recovered.rows[0]?.last?.getTime() ?? Number.NaN;

  // The receiver applies the first request of each key, and a request without a key always; a
  // request repeating a key it has seen is a retry, answered without a second effect.
  const effects = new Map<string, number>();
  const applied = new Set<string>();
  let retries = 0;
  for (const arrival of arrivals) {
    if (arrival.key !== undefined && applied.has(arrival.key)) {
      retries += 1;
      continue;
    }
    if (arrival.key !== undefined) applied.add(arrival.key);
    effects.set(arrival.run, (effects.get(arrival.run) ?? 0) + 1);
  }
  const runs = Array.from({ length: RUNS }, (_, i) => String(i));
  const history = await scoped(db, ALL_TENANTS)
    .selectFrom('action_history')
    .select(['result_status_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('action_definition_id', '=', action.action_definition_id)
    .groupBy('result_status_id')
    .execute();
  return {
    neverRun: runs.filter((run) => !effects.has(run)).length,
    duplicates: runs.reduce((sum, run) => sum + Math.max((effects.get(run) ?? 0) - 1, 0), 0),
    retries,
    orphaned: orphaned.length,
    recoverySeconds: (recoveredAt - killedAt) / 1000,
    history: Object.fromEntries(history.map((row) => [row.result_status_id, Number(row.n)])),
  };
}

async function runTimers() {
  const started = Array.from({ length: WORKERS }, (_, i) =>
    spawnFixtureWorker(database.url, `ticker-${i}`, 5000, tickTask.name),
  );
  tickers.push(...started.map(({ child }) => child));
  await Promise.all(started.map(({ ready }) => ready));
  // Counted from the moment all three run.
  await sql`DELETE FROM job_run`.execute(db);
  // A run's period is its job's run_at (the period's start), whatever key the job was enqueued under.
  const runsPerPeriod = sql<{
    run_at: Date;
    runs: number;
  }>`SELECT j.run_at, count(*)::int AS runs FROM job_run r JOIN job j ON j.task = ${tickTask.name} AND j.key = r.job_key GROUP BY j.run_at`;
  const periods = async () => (await runsPerPeriod.execute(db)).rows.length;
  await until(async () => (await periods()) >= TIMER_PERIODS, `${TIMER_PERIODS} periods of the recurring task`, 60_000);
  for (const ticker of tickers) ticker.kill('SIGKILL');
  const { rows } = await runsPerPeriod.execute(db);
  return { periods: rows.length, firedTwice: rows.filter((row) => row.runs > 1).length };
}

describe('jobs under faults', () => {
  test('1,000 action runs over three workers, one killed midway: each run takes effect once; a timer fires once per period', async () => {
    const actions = await runActionsUnderFaults();
    const timers = await runTimers();
    reportFigures('jobs under faults', {
      runs: RUNS,
      workers: WORKERS,
      'never run': actions.neverRun,
      'duplicate side effects': actions.duplicates,
      retries: actions.retries,
      'recovery s': actions.recoverySeconds.toFixed(1),
      'timer periods': timers.periods,
      'periods fired more than once': timers.firedTwice,
    });
    expect(actions.neverRun).toBe(0);
    expect(actions.duplicates).toBe(0);
    // The kill caught requests in flight, which were sent again under their key: the case the key is for.
    expect(actions.retries).toBeGreaterThan(0);
    expect(actions.orphaned).toBeGreaterThan(0);
    expect(Number.isFinite(actions.recoverySeconds)).toBe(true);
    expect(actions.history).toEqual({ [ACTION_RESULT_STATUSES.Success]: RUNS });
    expect(timers.periods).toBeGreaterThanOrEqual(TIMER_PERIODS);
    expect(timers.firedTwice).toBe(0);
  });
});
