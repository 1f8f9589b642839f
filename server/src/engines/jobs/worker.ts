import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import type { Db } from '../../db/database.js';
import { metrics } from '../../observability/metrics.js';
import { runWithRequestId } from '../../observability/request-context.js';
import { startHeartbeat } from './heartbeat.js';
import { claimJobs, completeJob, enqueue, extendLease, failJob, type ClaimedJob } from './queue.js';
import type { TaskContext, TaskDefinition } from './task.js';

export interface JobWorkerOptions {
  db: Db;
  /** The tasks this worker runs; jobs of other tasks are left to workers that know them. */
  tasks: readonly TaskDefinition<unknown>[];
  /** Where to LISTEN for new jobs (the database's connection string); without it the worker only polls. */
  listenUrl?: string;
  concurrency?: number;
  pollMs?: number;
  /** How long a claimed job stays this worker's without a sign of life; renewed while it runs. */
  leaseMs?: number;
  /** Names this worker in `job.locked_by`. */
  workerId?: string;
  /** Where failures go; `fields` names the job (task, key, id, and the request that caused it). */
  log?: (message: string, error?: unknown, fields?: Record<string, unknown>) => void;
}

export interface JobWorker {
  readonly workerId: string;
  /** Stops claiming, waits for the jobs in hand, and closes the listener. */
  stop(): Promise<void>;
}

/** The start of the period `every` that holds `now`: the idempotency key of a recurring task's run. */
export function periodStart(every: number, now = Date.now()): Date {
  return new Date(Math.floor(now / every) * every);
}

/**
 * Runs named tasks from the job table. Any number of these run against one database, in one
 * process or many: jobs are claimed with SKIP LOCKED, a job whose worker died is claimed again when
 * its lease runs out, and a recurring task is enqueued under the key of its period, so exactly one
 * job exists per period whichever workers try.
 */
export function startJobWorker(options: JobWorkerOptions): JobWorker {
  const { db, tasks } = options;
  const concurrency = options.concurrency ?? 4;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 60_000;
  const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const log = options.log ?? ((message, error) => console.error(message, error ?? ''));
  const byName = new Map(tasks.map((task) => [task.name, task] as const));
  const names = [...byName.keys()];
  const lastPeriod = new Map<string, number>();
  const channels = [...new Set(tasks.flatMap((task) => (task.wakeOn ? [task.wakeOn] : [])))];
  /** Notifications heard on the tasks' channels since the last tick: each starts its tasks once. */
  let heard: { channel: string; payload: string }[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;
  let wake: (() => void) | undefined;
  let listener: pg.Client | undefined;

  const context = (job: ClaimedJob): TaskContext => ({ db, jobId: job.job_id, key: job.key, attempt: job.attempts });

  async function run(job: ClaimedJob): Promise<void> {
    const task = byName.get(job.task);
    if (!task) return;
    // The job runs as part of the request that caused it: its log lines and the jobs it enqueues carry that id.
    if (job.request_id) return runWithRequestId(job.request_id, () => runClaimed(job, task));
    return runClaimed(job, task);
  }

  async function runClaimed(job: ClaimedJob, task: TaskDefinition<unknown>): Promise<void> {
    const fields = {
      task: job.task,
      key: job.key,
      jobId: job.job_id,
      attempt: job.attempts,
      ...(job.request_id ? { reqId: job.request_id } : {}),
    };
    const heartbeat = setInterval(
      () => void extendLease(db, workerId, job.job_id, leaseMs).catch(() => undefined),
      Math.max(leaseMs / 3, 50),
    );
    try {
      // A job whose worker died on its last attempt is not run again.
      if (job.attempts > job.max_attempts)
        throw new Error('The worker running the last attempt stopped before it finished.');
      const payload = task.payload.parse(job.payload);
      await task.perform(payload, context(job));
      await completeJob(db, workerId, job.job_id);
      metrics.jobOutcomes.inc({ task: job.task, outcome: 'done' });
    } catch (error) {
      const outcome = await failJob(
        db,
        workerId,
        { ...job, attempts: Math.min(job.attempts, job.max_attempts) },
        error,
        task.backoff(job.attempts),
      );
      metrics.jobOutcomes.inc({ task: job.task, outcome });
      if (outcome === 'failed') {
        log(`Job ${job.task} ${job.key} failed after ${job.max_attempts} attempt(s)`, error, fields);
        const parsed = task.payload.safeParse(job.payload);
        if (task.onFailed && parsed.success)
          await task
            .onFailed(parsed.data, error, context(job))
            .catch((hookError: unknown) => log(`The failure hook of ${job.task} failed`, hookError, fields));
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function enqueueRecurring(): Promise<void> {
    for (const task of tasks) {
      if (!task.every) continue;
      const start = periodStart(task.every).getTime();
      if (lastPeriod.get(task.name) === start) continue;
      await db
        .transaction()
        .execute((trx) =>
          enqueue(trx, task, {}, { key: `every:${new Date(start).toISOString()}`, runAt: new Date(start) }),
        );
      lastPeriod.set(task.name, start);
    }
  }

  async function enqueueWoken(): Promise<void> {
    const woken = heard;
    heard = [];
    if (woken.length === 0) return;
    // One transaction for all that was heard since the last tick.
    await db.transaction().execute(async (trx) => {
      for (const { channel, payload } of woken) {
        for (const task of tasks) if (task.wakeOn === channel) await enqueue(trx, task, {}, { key: `wake:${payload}` });
      }
    });
  }

  async function tick(): Promise<void> {
    await enqueueRecurring();
    await enqueueWoken();
    const jobs = await claimJobs(db, workerId, names, concurrency - running.size, leaseMs);
    for (const job of jobs) {
      const promise = run(job)
        // The database went away before the outcome was written (a restart): the job stays this
        // worker's until its lease runs out, then runs again. Unhandled, it would end the process.
        .catch((error: unknown) =>
          log(
            `Job ${job.task} ${job.key} ended but its outcome could not be recorded; it runs again when its lease runs out`,
            error,
          ),
        )
        .finally(() => {
          running.delete(promise);
          wake?.();
        });
      running.add(promise);
    }
  }

  let listenDelay = 250;
  /**
   * LISTENs on a connection of its own and, when the server ends it (a restart), connects again
   * with backoff; polling carries on meanwhile, so jobs are only picked up later, never lost.
   */
  async function listen(url: string): Promise<void> {
    if (stopped) return;
    const client = new pg.Client({ connectionString: url, application_name: 'cfs-job-listener' });
    let lost = false;
    const reconnect = () => {
      if (lost) return;
      lost = true;
      if (listener === client) listener = undefined;
      if (!stopped) setTimeout(() => void listen(url).catch(() => undefined), listenDelay).unref();
      listenDelay = Math.min(listenDelay * 2, 10_000);
    };
    client.on('notification', ({ channel, payload }) => {
      if (channel !== 'job_enqueued' && payload) heard.push({ channel, payload });
      wake?.();
    });
    client.on('error', (error) =>
      log('The job listener lost its connection; polling continues until it is back', error),
    );
    client.on('end', reconnect);
    try {
      await client.connect();
      for (const channel of channels) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      // Last: a listener whose latest statement is this one hears everything it listens for.
      await client.query('LISTEN job_enqueued');
    } catch (error) {
      reconnect();
      await client.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
    listenDelay = 250;
    // Jobs enqueued while it was away were announced to nobody.
    wake?.();
  }

  const stopHeartbeat = startHeartbeat(db, workerId, (error) =>
    log('The worker could not record its heartbeat', error),
  );
  const loop = (async () => {
    if (options.listenUrl)
      await listen(options.listenUrl).catch((error: unknown) =>
        log('Cannot listen for jobs yet; polling until it can', error),
      );
    while (!stopped) {
      try {
        await tick();
      } catch (error) {
        log('The job worker could not claim jobs', error);
      }
      if (stopped) break;
      // Heard while the tick ran: its tasks start now, not after the poll.
      if (heard.length > 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return {
    workerId,
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      await Promise.allSettled([...running]);
      await stopHeartbeat();
      await listener?.end().catch(() => undefined);
    },
  };
}
