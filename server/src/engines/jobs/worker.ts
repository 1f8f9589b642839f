import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { poolSizeOf, type Db } from '../../db/database.js';
import { metrics } from '../../observability/metrics.js';
import { runWithRequestId } from '../../observability/request-context.js';
import { startHeartbeat } from './heartbeat.js';
import {
  completeAndClaim,
  completeJobs,
  enqueue,
  extendLeases,
  failJob,
  releaseJobs,
  type ClaimedJob,
  type HeldAttempt,
} from './queue.js';
import type { TaskContext, TaskDefinition } from './task.js';

export interface JobWorkerOptions {
  db: Db;
  /** The tasks this worker runs; jobs of other tasks are left to workers that know them. */
  tasks: readonly TaskDefinition<unknown>[];
  /** Where to LISTEN for new jobs (the database's connection string); without it the worker only polls. */
  listenUrl?: string;
  /** Jobs run at once; default `defaultConcurrency(db)`. */
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
  /**
   * Stops claiming, gives back the jobs it claimed but had not started, waits for the jobs it runs,
   * writes their outcomes, and closes the listener.
   */
  stop(): Promise<void>;
}

/**
 * Jobs run at once unless told: one per connection of the pool but two, which the worker's own
 * statements use (the next claim, and the outcomes written together), and never fewer than 4.
 */
export function defaultConcurrency(db: Db): number {
  return Math.max(4, (poolSizeOf(db) ?? 0) - 2);
}

/** A job claimed and not yet recorded: waiting for a slot, running, or finished and its outcome not yet written. */
interface Held {
  job: ClaimedJob;
  /** Until when its lease holds at the least, by this process's clock (from before the claim or renewal was sent). */
  heldUntil: number;
}

const attemptOf = ({ job }: Held): HeldAttempt => ({ job_id: job.job_id, attempts: job.attempts });

/** How long a finished job's outcome waits to go with the next claim before it is written on its own. */
const OUTCOME_WAIT_MS = 5;

/** The start of the period `every` that holds `now`: the idempotency key of a recurring task's run. */
export function periodStart(every: number, now = Date.now()): Date {
  return new Date(Math.floor(now / every) * every);
}

/**
 * Runs named tasks from the job table. Any number of these run against one database, in one
 * process or many: jobs are claimed with SKIP LOCKED, a job whose worker died is claimed again when
 * its lease runs out, and a recurring task is enqueued under the key of its period, so exactly one
 * job exists per period whichever workers try.
 *
 * A worker claims up to twice as many jobs as it runs at once, so that a slot that frees starts
 * the next job without waiting for the database; the leases of all it holds, started or not, are
 * renewed together, and the jobs that finish close together are marked done in one statement,
 * the one that claims the next jobs when it is sent within a few milliseconds.
 */
export function startJobWorker(options: JobWorkerOptions): JobWorker {
  const { db, tasks } = options;
  const concurrency = options.concurrency ?? defaultConcurrency(db);
  const capacity = 2 * concurrency;
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
  /** Claimed and waiting for a slot, oldest first. */
  const queued: Held[] = [];
  /** Every job claimed and not yet recorded, by id: whose leases the worker renews. */
  const held = new Map<number, Held>();
  const running = new Set<Promise<void>>();
  /** Finished, their outcomes waiting to be written together. */
  let finished: Held[] = [];
  let writing: Promise<void> | undefined;
  let stopped = false;
  let wake: (() => void) | undefined;
  /** Set when a slot frees or a notification comes while a tick runs: the loop ticks again instead of waiting. */
  let nudged = false;
  const nudge = () => {
    nudged = true;
    wake?.();
  };
  let listener: pg.Client | undefined;

  /** No longer this worker's to start, renew or record (unless a newer attempt of it was claimed since). */
  const forget = (h: Held) => {
    if (held.get(h.job.job_id) === h) held.delete(h.job.job_id);
    const index = queued.indexOf(h);
    if (index >= 0) queued.splice(index, 1);
  };

  const context = (job: ClaimedJob): TaskContext => ({ db, jobId: job.job_id, key: job.key, attempt: job.attempts });

  async function run(h: Held): Promise<void> {
    const task = byName.get(h.job.task);
    if (!task) return forget(h);
    // The job runs as part of the request that caused it: its log lines and the jobs it enqueues carry that id.
    if (h.job.request_id) return runWithRequestId(h.job.request_id, () => runClaimed(h, task));
    return runClaimed(h, task);
  }

  async function runClaimed(h: Held, task: TaskDefinition<unknown>): Promise<void> {
    const { job } = h;
    const fields = {
      task: job.task,
      key: job.key,
      jobId: job.job_id,
      attempt: job.attempts,
      ...(job.request_id ? { reqId: job.request_id } : {}),
    };
    try {
      // A job whose worker died on its last attempt is not run again.
      if (job.attempts > job.max_attempts)
        throw new Error('The worker running the last attempt stopped before it finished.');
      const payload = task.payload.parse(job.payload);
      await task.perform(payload, context(job));
    } catch (error) {
      try {
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
        forget(h);
      }
      return;
    }
    // Its slot is free now; it stays held (its lease renewed) until its outcome is written.
    finished.push(h);
    void writeOutcomes();
  }

  /** Counts the outcomes written; an attempt this worker no longer held was not written (lost). */
  function recorded(batch: readonly Held[], done: ReadonlySet<number>): void {
    for (const h of batch) {
      metrics.jobOutcomes.inc({ task: h.job.task, outcome: done.has(h.job.job_id) ? 'done' : 'lost' });
      forget(h);
    }
  }

  function unrecorded(batch: readonly Held[], error: unknown): void {
    if (batch.length === 0) return;
    // The database went away before the outcomes were written (a restart): the jobs stay this
    // worker's until their leases run out, then run again.
    log(
      `${batch.length} job(s) ended but their outcome could not be recorded; they run again when their lease runs out`,
      error,
      { jobs: batch.map(({ job }) => ({ task: job.task, key: job.key, jobId: job.job_id })) },
    );
    for (const h of batch) forget(h);
  }

  /**
   * Marks done, in one statement, the jobs that finished and were not written with a claim
   * meanwhile (tick); those that finish while it is under way are written by the next. Each is
   * written only if this worker still holds that attempt of it.
   */
  function writeOutcomes(): Promise<void> {
    writing ??= (async () => {
      await new Promise<void>((resolve) => setTimeout(resolve, OUTCOME_WAIT_MS));
      while (finished.length > 0) {
        const batch = finished;
        finished = [];
        try {
          recorded(batch, await completeJobs(db, workerId, batch.map(attemptOf)));
        } catch (error) {
          unrecorded(batch, error);
        }
      }
      writing = undefined;
    })();
    return writing;
  }

  /** Starts waiting jobs while slots are free. */
  function startQueued(): void {
    while (!stopped && running.size < concurrency) {
      const h = queued.shift();
      if (!h) return;
      // Its lease could not be renewed lately (the database is away): it may run out while the job
      // runs, and another worker run it too. It is left to be claimed again when the lease runs out.
      if (h.heldUntil - Date.now() < leaseMs / 3) {
        forget(h);
        continue;
      }
      const promise = run(h)
        // The database went away before a failure was written (a restart): the job stays this
        // worker's until its lease runs out, then runs again. Unhandled, it would end the process.
        .catch((error: unknown) =>
          log(
            `Job ${h.job.task} ${h.job.key} ended but its outcome could not be recorded; it runs again when its lease runs out`,
            error,
          ),
        )
        .finally(() => {
          running.delete(promise);
          startQueued();
          nudge();
        });
      running.add(promise);
    }
  }

  let renewing = false;
  /** Renews the leases of every job held, started or waiting, in one statement. */
  async function renewLeases(): Promise<void> {
    if (renewing || held.size === 0) return;
    renewing = true;
    const attempts = [...held.values()];
    const sentAt = Date.now();
    try {
      const kept = await extendLeases(db, workerId, attempts.map(attemptOf), leaseMs);
      for (const h of attempts) {
        if (kept.has(h.job.job_id)) h.heldUntil = sentAt + leaseMs;
        // Recorded meanwhile, or taken over by another worker after its lease ran out: not to be started or renewed.
        else forget(h);
      }
    } catch {
      // The next renewal tries again; a waiting job whose lease may run out meanwhile is not started.
    } finally {
      renewing = false;
    }
  }
  const renewal = setInterval(() => void renewLeases(), Math.max(leaseMs / 3, 50));

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
    const room = capacity - queued.length - running.size;
    // Claims when a whole round of jobs fits, or nothing waits: not one job at a time as slots free.
    if (room < concurrency && (queued.length > 0 || room <= 0)) return;
    // The outcomes waiting to be written go with the claim: one commit for both.
    const batch = finished;
    finished = [];
    const sentAt = Date.now();
    const { done, claimed } = await completeAndClaim(db, workerId, batch.map(attemptOf), names, room, leaseMs).catch(
      (error: unknown) => {
        // Nothing was written: the outcomes wait for the next write, their leases still renewed.
        finished = [...batch, ...finished];
        throw error;
      },
    );
    recorded(batch, done);
    for (const job of claimed) {
      // This worker's earlier attempt of it, whose lease ran out unrenewed, is superseded.
      const earlier = held.get(job.job_id);
      if (earlier) forget(earlier);
      const h = { job, heldUntil: sentAt + leaseMs };
      held.set(job.job_id, h);
      queued.push(h);
    }
    startQueued();
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
      nudge();
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
    nudge();
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
      nudged = false;
      try {
        await tick();
      } catch (error) {
        log('The job worker could not claim jobs', error);
      }
      if (stopped) break;
      // Heard, or a slot freed, while the tick ran: claim now, not after the poll.
      if (heard.length > 0 || nudged) continue;
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
      // Claimed but not started: given back at once for another worker, not left until their leases run out.
      const unstarted = queued.splice(0);
      for (const h of unstarted) forget(h);
      await releaseJobs(db, workerId, unstarted.map(attemptOf)).catch((error: unknown) =>
        log('Jobs claimed but not started could not be given back; they run when their lease runs out', error),
      );
      await Promise.allSettled([...running]);
      await writeOutcomes();
      clearInterval(renewal);
      await stopHeartbeat();
      await listener?.end().catch(() => undefined);
    },
  };
}
