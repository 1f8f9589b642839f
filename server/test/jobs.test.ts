import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { connect, type Db, type Tx } from '../src/db/database.js';
import { readEvents, WORK_UNIT_EVENT_CHANNEL } from '../src/engines/events/cursor.js';
import { enqueue, enqueueMany } from '../src/engines/jobs/queue.js';
import { defineTask } from '../src/engines/jobs/task.js';
import { startJobWorker, type JobWorker } from '../src/engines/jobs/worker.js';
import { DEMO } from '../src/db/demo-ids.js';
import type { DB } from '../src/db/schema.js';
import { slowTask, TEST_TASK_TABLES, tickTask } from './fixtures/test-tasks.js';
import { spawnFixtureWorker, until } from './processes.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

let database: TestDatabase;
let db: Db;
const children: ChildProcess[] = [];
const workers: JobWorker[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = connect(database.url, 8);
  for (const statement of TEST_TASK_TABLES) await sql.raw(statement).execute(db);
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const worker of workers.splice(0)) await worker.stop();
  await sql`TRUNCATE job, job_run, job_effect`.execute(db);
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

function spawnWorker(workerId: string, leaseMs: number, task: string): Promise<ChildProcess> {
  const { child, ready } = spawnFixtureWorker(database.url, workerId, leaseMs, task);
  children.push(child);
  return ready;
}

const count = async (query: string) => Number((await sql.raw<{ n: number }>(query).execute(db)).rows[0]?.n ?? 0);

describe('jobs', () => {
  test('three workers, one killed midway: every job is done and its effect happens once', async () => {
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 45; i++) await enqueue(trx, slowTask, { ms: 400 }, { key: `job-${i}` });
    });
    // The first worker alone would need six seconds for them all: it is killed while it holds some.
    const doomed = await spawnWorker('doomed', 2000, slowTask.name);
    await until(
      async () => (await count(`SELECT count(*) AS n FROM job WHERE state = 'running' AND locked_by = 'doomed'`)) > 0,
      'the doomed worker to hold jobs',
    );
    await Promise.all([spawnWorker('steady-1', 2000, slowTask.name), spawnWorker('steady-2', 2000, slowTask.name)]);
    await until(
      async () => (await count(`SELECT count(*) AS n FROM job WHERE state = 'running' AND locked_by = 'doomed'`)) > 0,
      'the doomed worker to hold jobs again',
      60_000,
    );
    doomed.kill('SIGKILL');
    await until(
      async () => (await count(`SELECT count(*) AS n FROM job WHERE state = 'done'`)) === 45,
      'every job to be done',
      60_000,
    );

    const missing = await sql<
      Record<string, unknown>
    >`SELECT j.key, j.attempts, j.locked_by, (SELECT array_agg(worker) FROM job_run r WHERE r.job_key = j.key) AS runs FROM job j LEFT JOIN job_effect e ON e.job_key = j.key WHERE e.job_key IS NULL`.execute(
      db,
    );
    expect(missing.rows).toEqual([]);
    expect(await count(`SELECT count(*) AS n FROM job_effect`)).toBe(45);
    expect(await count(`SELECT count(*) AS n FROM job_run WHERE worker = 'doomed'`)).toBeGreaterThan(0);
    // A job the surviving workers started, they started once: no job is claimed twice while its lease holds.
    expect(
      await count(
        `SELECT count(*) AS n FROM (SELECT job_key FROM job_run WHERE worker <> 'doomed' GROUP BY job_key HAVING count(*) > 1) AS twice`,
      ),
    ).toBe(0);
    // The jobs the killed worker left were finished by the others, after its lease ran out.
    expect(await count(`SELECT count(*) AS n FROM job WHERE attempts > 1`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM job_run WHERE worker LIKE 'steady-%'`)).toBeGreaterThan(0);
  }, 120_000);

  test('a recurring task fires once per period across two worker processes', async () => {
    await Promise.all([spawnWorker('first', 5000, tickTask.name), spawnWorker('second', 5000, tickTask.name)]);
    await until(async () => (await count(`SELECT count(DISTINCT job_key) AS n FROM job_run`)) >= 4, 'four periods');
    for (const child of children.splice(0)) child.kill('SIGKILL');
    const { rows } = await sql<{
      job_key: string;
      runs: number;
    }>`SELECT job_key, count(*)::int AS runs FROM job_run GROUP BY job_key`.execute(db);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((row) => row.runs !== 1)).toEqual([]);
    // One job per period, whichever worker enqueued it first.
    expect(
      await count(
        `SELECT count(*) AS n FROM (SELECT key FROM job WHERE task = '${tickTask.name}' GROUP BY key HAVING count(*) > 1) AS twice`,
      ),
    ).toBe(0);
  }, 30_000);

  test('a failing task is retried after its backoff, and succeeds', async () => {
    let runs = 0;
    const flaky = defineTask({
      name: 'test.flaky',
      payload: z.object({}),
      attempts: 3,
      backoff: () => 30,
      perform: async () => {
        runs += 1;
        if (runs < 3) throw new Error(`attempt ${runs} fails`);
      },
    });
    workers.push(startJobWorker({ db, tasks: [flaky], pollMs: 10, log: () => undefined }));
    await db.transaction().execute((trx) => enqueue(trx, flaky, {}, { key: 'once' }));
    await until(
      async () => (await count(`SELECT count(*) AS n FROM job WHERE state = 'done'`)) === 1,
      'the job to succeed',
    );
    expect(runs).toBe(3);
    const job = await db.selectFrom('job').select(['attempts', 'last_error']).executeTakeFirstOrThrow();
    expect(job).toEqual({ attempts: 3, last_error: null });
  });

  test('a task that fails every attempt is failed for good and its failure hook runs once', async () => {
    const failures: string[] = [];
    const broken = defineTask({
      name: 'test.broken',
      payload: z.object({ n: z.number() }),
      attempts: 2,
      backoff: () => 10,
      perform: () => Promise.reject(new Error('always')),
      onFailed: async ({ n }, error) => void failures.push(`${n}: ${(error as Error).message}`),
    });
    const worker = startJobWorker({ db, tasks: [broken], pollMs: 10, log: () => undefined });
    await db.transaction().execute((trx) => enqueue(trx, broken, { n: 7 }, { key: 'doomed' }));
    await until(async () => failures.length > 0, 'the failure hook');
    // Stopping waits for everything in hand: no second call can still be on its way.
    await worker.stop();
    expect(failures).toEqual(['7: always']);
    expect(await db.selectFrom('job').select(['attempts', 'state']).executeTakeFirstOrThrow()).toEqual({
      attempts: 2,
      state: 'failed',
    });
  });

  test('a job exists only if the transaction that enqueued it commits, and once per key', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueue(trx, slowTask, { ms: 1 }, { key: 'rolled-back' });
        throw new Error('the cause fails');
      }),
    ).rejects.toThrow('the cause fails');
    const added = await db
      .transaction()
      .execute(async (trx) => [
        await enqueue(trx, slowTask, { ms: 1 }, { key: 'k' }),
        await enqueue(trx, slowTask, { ms: 1 }, { key: 'k' }),
      ]);
    expect(added).toEqual([true, false]);
    expect(await db.selectFrom('job').select('key').execute()).toEqual([{ key: 'k' }]);
  });

  test('enqueue takes the open transaction, never the root handle', () => {
    const mustBeTransaction = (trx: Tx) => enqueue(trx, slowTask, { ms: 1 }, { key: 'typed' });
    // @ts-expect-error the root handle is not a transaction
    const refused = () => mustBeTransaction(db);
    expect(typeof refused).toBe('function');
  });
});

describe('a worker holding many jobs', () => {
  const noOp = defineTask({ name: 'test.no-op', payload: z.object({}), perform: async () => undefined });
  const enqueueNoOps = (count: number, task: typeof noOp = noOp) =>
    db.transaction().execute((trx) =>
      enqueueMany(
        trx,
        task,
        Array.from({ length: count }, (_, i) => ({ payload: {}, key: `n-${i}` })),
      ),
    );

  test('marks the jobs that finish close together done in one statement, not one each', async () => {
    // The statements that write a job's finish, as the worker sends them.
    const finishes: string[] = [];
    const observed = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 6 }) }),
      log: (event) => {
        if (event.level === 'query' && /\bfinished\b/.test(event.query.sql)) finishes.push(event.query.sql);
      },
    });
    await enqueueNoOps(40);
    const worker = startJobWorker({ db: observed, tasks: [noOp], concurrency: 8, pollMs: 10, log: () => undefined });
    try {
      await until(
        async () => (await count(`SELECT count(*) AS n FROM job WHERE state = 'done'`)) === 40,
        'every job to be done',
      );
    } finally {
      await worker.stop();
      await observed.destroy();
    }
    expect(finishes.length).toBeGreaterThan(0);
    expect(finishes.length).toBeLessThanOrEqual(10);
    expect(await count(`SELECT count(*) AS n FROM job WHERE attempts <> 1`)).toBe(0);
  });

  test('keeps the lease of a job it claimed and has not started: no other worker takes it', async () => {
    await db.transaction().execute(async (trx) => {
      for (const key of ['first', 'second']) await enqueue(trx, slowTask, { ms: 1500 }, { key });
    });
    const worker = (workerId: string) =>
      startJobWorker({
        db,
        tasks: [slowTask],
        concurrency: 1,
        leaseMs: 600,
        pollMs: 20,
        workerId,
        log: () => undefined,
      });
    workers.push(worker('ahead'));
    await until(
      async () => (await count(`SELECT count(*) AS n FROM job WHERE locked_by = 'ahead'`)) === 2,
      'the worker to hold both jobs, one of them waiting',
    );
    // The second job waits longer than a lease for the first to finish, while another worker looks for work.
    workers.push(worker('idle'));
    await until(
      async () => (await count(`SELECT count(*) AS n FROM job WHERE state = 'done'`)) === 2,
      'both jobs to be done',
    );
    expect(await count(`SELECT count(*) AS n FROM job_run`)).toBe(2);
    expect(await count(`SELECT count(*) AS n FROM job WHERE attempts <> 1`)).toBe(0);
  });

  test('when stopped gives back the jobs it has not started and writes the outcomes of those that ran', async () => {
    const ran: string[] = [];
    const brief = defineTask({
      name: 'test.brief',
      payload: z.object({}),
      perform: async (_payload, { key }) => {
        await sleep(30);
        ran.push(key);
      },
    });
    await enqueueNoOps(30, brief);
    const worker = startJobWorker({ db, tasks: [brief], concurrency: 4, pollMs: 10, log: () => undefined });
    await until(() => ran.length >= 6, 'some jobs to run');
    await worker.stop();
    const jobs = await db.selectFrom('job').select(['key', 'state', 'attempts', 'locked_by']).execute();
    expect(jobs.filter((job) => job.state === 'running')).toEqual([]);
    expect(
      jobs
        .filter((job) => job.state === 'done')
        .map((job) => job.key)
        .sort(),
    ).toEqual([...ran].sort());
    // Claimed and not started, or never claimed: pending, with no attempt counted.
    const pending = jobs.filter((job) => job.state === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.filter((job) => job.attempts !== 0 || job.locked_by !== null)).toEqual([]);
  });
});

describe('a worker that loses its database', () => {
  test('while a job runs says so and carries on, and the job runs again once its lease runs out', async () => {
    const cutOff = connect(database.url, 2);
    const problems: string[] = [];
    const losesDatabase = defineTask({
      name: 'test.loses-database',
      payload: z.object({}),
      // As a database restart does, between the work and the writing of its outcome.
      perform: async (_payload, { attempt }) => {
        if (attempt === 1) await cutOff.destroy();
      },
    });
    await db.transaction().execute((trx) => enqueue(trx, losesDatabase, {}, { key: 'cut-off' }));
    workers.push(
      startJobWorker({
        db: cutOff,
        tasks: [losesDatabase],
        leaseMs: 300,
        pollMs: 50,
        workerId: 'cut-off',
        log: (message) => problems.push(message),
      }),
    );
    await until(
      async () => problems.some((message) => message.includes('could not be recorded')),
      'the worker to report the lost outcome',
    );
    workers.push(startJobWorker({ db, tasks: [losesDatabase], leaseMs: 300, pollMs: 50, workerId: 'steady' }));
    await until(
      async () =>
        (await count(`SELECT count(*) AS n FROM job WHERE key = 'cut-off' AND state = 'done' AND attempts = 2`)) === 1,
      'the job to be done again',
    );
  });
});

describe('the job listener', () => {
  test('connects again after the server ended its connection, and its notifications wake the worker', async () => {
    const done: string[] = [];
    const quick = defineTask({
      name: 'test.quick',
      payload: z.object({}),
      perform: async (_payload, { key }) => void done.push(key),
    });
    // Polling once a minute: only a notification can have the job done within the test's wait.
    workers.push(startJobWorker({ db, tasks: [quick], listenUrl: database.url, pollMs: 60_000, log: () => undefined }));
    const listenerPid = async () =>
      (
        await sql<{
          pid: number;
        }>`SELECT pid FROM pg_stat_activity WHERE application_name = 'cfs-job-listener' AND datname = current_database()`.execute(
          db,
        )
      ).rows[0]?.pid;
    await until(async () => (await listenerPid()) !== undefined, 'the listener to connect');
    const first = await listenerPid();
    await sql`SELECT pg_terminate_backend(${first})`.execute(db);
    await until(async () => ![undefined, first].includes(await listenerPid()), 'the listener to connect again');
    await db.transaction().execute((trx) => enqueue(trx, quick, {}, { key: 'after-reconnect' }));
    await until(async () => done.includes('after-reconnect'), 'the notification to wake the worker', 5000);
  });
});

describe('a task woken by a channel', () => {
  test('runs once for each transaction that records work unit events, whichever of its workers hear it', async () => {
    const ran: string[] = [];
    const consumer = defineTask({
      name: 'test.event-consumer',
      payload: z.object({}),
      wakeOn: WORK_UNIT_EVENT_CHANNEL,
      perform: async (_payload, { key }) => void ran.push(key),
    });
    // Polling once a minute and no period: only the transaction's notification can start it.
    for (const workerId of ['a', 'b'])
      workers.push(
        startJobWorker({
          db,
          tasks: [consumer],
          listenUrl: database.url,
          pollMs: 60_000,
          workerId,
          log: () => undefined,
        }),
      );
    const listeners = async () =>
      Number(
        (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'cfs-job-listener' AND datname = current_database()`.execute(
            db,
          )
        ).rows[0]?.n ?? 0,
      );
    await until(async () => (await listeners()) === 2, 'both listeners to connect');
    const recordEvents = (count: number) =>
      db.transaction().execute(async (trx) => {
        for (let i = 0; i < count; i++)
          await trx
            .insertInto('work_unit_event')
            .values({ work_unit_id: 1, tenant_id: DEMO.contoso, event_type_id: 1, created_by: 'test' })
            .execute();
        return (await sql<{ id: string }>`SELECT pg_current_xact_id()::text AS id`.execute(trx)).rows[0]?.id;
      });
    const first = await recordEvents(3);
    await until(() => ran.length >= 1, 'the first transaction to start the task', 5000);
    const second = await recordEvents(1);
    await until(() => ran.length >= 2, 'the second transaction to start the task', 5000);
    await until(
      async () => (await count(`SELECT count(*) AS n FROM job WHERE state = 'done'`)) === 2,
      'both jobs to be done',
    );
    expect(ran.sort()).toEqual([`wake:${first}`, `wake:${second}`].sort());
    expect(await db.selectFrom('job').select(['task', 'key']).orderBy('job_id').execute()).toEqual([
      { task: 'test.event-consumer', key: `wake:${first}` },
      { task: 'test.event-consumer', key: `wake:${second}` },
    ]);
  });
});

describe('work unit event cursors', () => {
  const addEvent = (executor: Db | Tx) =>
    executor
      .insertInto('work_unit_event')
      .values({ work_unit_id: 1, tenant_id: DEMO.contoso, event_type_id: 1, created_by: 'test' })
      .returning('work_unit_event_id')
      .executeTakeFirstOrThrow()
      .then((row) => row.work_unit_event_id);

  const drain = async (consumer: string) => {
    const seen: number[] = [];
    while (
      (await readEvents(
        db,
        consumer,
        3,
        async (events) => void seen.push(...events.map((event) => event.work_unit_event_id)),
      )) > 0
    );
    return seen;
  };
  // Events become readable once no older transaction of the server is open, and other test files
  // share the server: read until `count` events arrived or ten seconds passed.
  const drainUntil = async (consumer: string, count: number) => {
    const seen: number[] = [];
    const deadline = Date.now() + 20_000;
    while (seen.length < count && Date.now() < deadline) {
      seen.push(...(await drain(consumer)));
      if (seen.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return seen;
  };

  // Every event recorded so far read by the consumer (its cursor past the newest), however long
  // older transactions elsewhere on the shared server keep them waiting: a test starts from there.
  const catchUp = async (consumer: string) => {
    const newest = Number(
      (await sql<{ id: number | null }>`SELECT max(work_unit_event_id) AS id FROM work_unit_event`.execute(db)).rows[0]
        ?.id ?? 0,
    );
    const position = async () =>
      Number(
        (
          await sql<{
            id: number | null;
          }>`SELECT last_id AS id FROM engine_cursor WHERE consumer = ${consumer}`.execute(db)
        ).rows[0]?.id ?? 0,
      );
    await drain(consumer);
    await until(
      async () => (await drain(consumer), (await position()) >= newest),
      `the ${consumer} cursor to catch up`,
      20_000,
    );
  };

  test(
    'each consumer reads every event once, and an event committed late is not skipped',
    { timeout: 90_000 },
    async () => {
      await catchUp('protocols');
      await catchUp('communications');
      const first = await addEvent(db);
      // A transaction that takes an id, then commits after a later id has committed.
      let commitLate!: () => void;
      const late = new Promise<void>((resolve) => (commitLate = resolve));
      let lateId = 0;
      const lateTransaction = db.transaction().execute(async (trx) => {
        lateId = await addEvent(trx);
        await late;
      });
      await until(async () => lateId > 0, 'the late event');
      const third = await addEvent(db);
      // While the late transaction is open, nothing after it is read (the third event waits too).
      expect(await drainUntil('protocols', 1)).toEqual([first]);
      expect(await drain('protocols')).toEqual([]);
      commitLate();
      await lateTransaction;
      expect(await drainUntil('protocols', 2)).toEqual([lateId, third]);
      expect(await drainUntil('communications', 3)).toEqual([first, lateId, third]);
      expect(await drain('protocols')).toEqual([]);
    },
  );

  test('two workers running the same consumer together read each event once', { timeout: 60_000 }, async () => {
    await catchUp('rules');
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push(await addEvent(db));
    const seen: number[] = [];
    const slowHandler = async (events: { work_unit_event_id: number }[]) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen.push(...events.map((event) => event.work_unit_event_id));
    };
    // Events become readable once no older transaction of the server is open (other test files
    // share it), so the workers read until all arrived or twenty seconds passed, not a fixed number of times.
    const deadline = Date.now() + 20_000;
    const worker = async () => {
      while (seen.length < ids.length && Date.now() < deadline) await readEvents(db, 'rules', 4, slowHandler);
    };
    await Promise.all([worker(), worker()]);
    expect(seen.sort((a, b) => a - b)).toEqual(ids);
  });
});
