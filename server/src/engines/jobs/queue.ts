import { sql, type RawBuilder } from 'kysely';
import type { Db, Tx } from '../../db/database.js';
import { currentRequestId } from '../../observability/request-context.js';
import type { TaskDefinition } from './task.js';

export interface EnqueueOptions {
  /** The idempotency key: one job per task and key, however often it is enqueued. */
  key: string;
  /** Not before this moment; default now. */
  runAt?: Date;
}

/**
 * Enqueues a job inside the transaction that causes it (the transactional outbox): the job exists
 * exactly when the change that asked for it committed. Enqueuing the same task and key again does
 * nothing. Returns whether a job was added.
 *
 * @example
 *   await db.transaction().execute(async (trx) => {
 *     const unit = await createUnit(trx, ...);
 *     await enqueue(trx, notifyStakeholder, { workUnitId: unit.id }, { key: `work-unit:${unit.id}:created` });
 *   });
 */
export async function enqueue<P>(
  trx: Tx,
  task: TaskDefinition<P>,
  payload: P,
  options: EnqueueOptions,
): Promise<boolean> {
  const checked = task.payload.parse(payload);
  const result = await trx
    .insertInto('job')
    .values({
      task: task.name,
      key: options.key,
      payload: JSON.stringify(checked),
      max_attempts: task.attempts,
      run_at: options.runAt ?? new Date(),
      request_id: currentRequestId() ?? null,
    })
    .onConflict((oc) => oc.columns(['task', 'key']).doNothing())
    .returning('job_id')
    .executeTakeFirst();
  const added = result !== undefined;
  // Delivered at commit, so a waiting worker claims the job at once instead of at its next poll.
  if (added) await sql`SELECT pg_notify('job_enqueued', ${task.name})`.execute(trx);
  return added;
}

/**
 * Jobs enqueued by the one statement that writes what they are about, where a job's key or payload
 * holds a value that statement makes (ingestion's statement: the id of the rule match its upsert
 * opens). `rows` reads `(key text, payload jsonb)` from the statement's other expressions; the
 * result is the common table expressions to add to it (the insert, as `enqueueMany`'s, and the
 * wake-up at commit) and `read`, a condition the statement must evaluate so the wake-up runs.
 * `drafts` are the payloads as far as they are known before the statement, with a stand-in for
 * what it fills in: each is checked against the task's schema, so a malformed job stops the
 * statement from being sent at all.
 *
 * @example
 *   const jobs = enqueueInStatement(task, sql`SELECT m.id::text, jsonb_build_object('matchId', m.id) FROM upserted m`, drafts);
 *   await sql`WITH upserted AS (INSERT …), ${jobs.ctes} SELECT ${jobs.read}`.execute(db);
 */
export function enqueueInStatement<P>(
  task: TaskDefinition<P>,
  rows: RawBuilder<unknown>,
  drafts: readonly P[],
): { ctes: RawBuilder<unknown>; read: RawBuilder<boolean> } {
  for (const draft of drafts) task.payload.parse(draft);
  const ctes = sql`enqueued_job AS (
      INSERT INTO job (task, key, payload, max_attempts, request_id)
      SELECT ${task.name}, r.key, r.payload, ${task.attempts}, ${currentRequestId() ?? null}::text
      FROM (${rows}) AS r(key, payload)
      ON CONFLICT (task, key) DO NOTHING
      RETURNING 1
    ), enqueued_notice AS (
      SELECT pg_notify('job_enqueued', ${task.name}) FROM (SELECT 1 FROM enqueued_job LIMIT 1) AS any_job
    )`;
  return { ctes, read: sql<boolean>`((SELECT count(*) FROM enqueued_notice) >= 0)` };
}

/**
 * Enqueues many jobs of one task in one statement, inside the transaction that causes them (as
 * `enqueue`): jobs whose key exists already are skipped. Returns how many were added.
 */
export async function enqueueMany<P>(
  trx: Tx,
  task: TaskDefinition<P>,
  jobs: readonly { payload: P; key: string; runAt?: Date }[],
): Promise<number> {
  if (jobs.length === 0) return 0;
  const now = new Date();
  const requestId = currentRequestId() ?? null;
  const added = await trx
    .insertInto('job')
    .values(
      jobs.map((job) => ({
        task: task.name,
        key: job.key,
        payload: JSON.stringify(task.payload.parse(job.payload)),
        max_attempts: task.attempts,
        run_at: job.runAt ?? now,
        request_id: requestId,
      })),
    )
    .onConflict((oc) => oc.columns(['task', 'key']).doNothing())
    .returning('job_id')
    .execute();
  if (added.length > 0) await sql`SELECT pg_notify('job_enqueued', ${task.name})`.execute(trx);
  return added.length;
}

export interface ClaimedJob {
  job_id: number;
  task: string;
  key: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  /** The request that caused the job (observability/request-context.ts), if one did. */
  request_id: string | null;
}

/**
 * Claims up to `limit` due jobs of the named tasks for `worker`, in one short statement that
 * commits before any work runs: pending jobs whose time has come, and running jobs whose lease ran
 * out (their worker died). SKIP LOCKED lets any number of workers claim side by side.
 */
export async function claimJobs(
  db: Db,
  worker: string,
  tasks: readonly string[],
  limit: number,
  leaseMs: number,
): Promise<ClaimedJob[]> {
  if (limit <= 0 || tasks.length === 0) return [];
  const { rows } = await sql<ClaimedJob>`
    UPDATE job SET state = 'running', attempts = attempts + 1, locked_by = ${worker},
      locked_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE job_id IN (
      SELECT job_id FROM job
      WHERE state IN ('pending', 'running') AND task = ANY(${sql.val(tasks)}::text[])
        AND ((state = 'pending' AND run_at <= now()) OR (state = 'running' AND locked_until < now()))
      ORDER BY run_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING job_id, task, key, payload, attempts, max_attempts, request_id`.execute(db);
  return rows;
}

/** Extends the lease of a job this worker still holds; false when it lost it (another worker took over). */
export async function extendLease(db: Db, worker: string, jobId: number, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('job')
    .set({ locked_until: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where('job_id', '=', jobId)
    .where('locked_by', '=', worker)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks the job done, if this worker still holds it. */
export async function completeJob(db: Db, worker: string, jobId: number): Promise<boolean> {
  const result = await db
    .updateTable('job')
    .set({ state: 'done', finished: new Date(), locked_by: null, locked_until: null, last_error: null })
    .where('job_id', '=', jobId)
    .where('locked_by', '=', worker)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Records a failed attempt: the job waits `retryInMs` for its next attempt, or, with none left,
 * is failed for good. Returns 'retry', 'failed', or 'lost' when this worker no longer held it.
 */
export async function failJob(
  db: Db,
  worker: string,
  job: ClaimedJob,
  error: unknown,
  retryInMs: number,
): Promise<'retry' | 'failed' | 'lost'> {
  const message = (error instanceof Error ? (error.stack ?? error.message) : String(error)).slice(0, 4000);
  const last = job.attempts >= job.max_attempts;
  const result = await db
    .updateTable('job')
    .set(
      last
        ? { state: 'failed', finished: new Date(), locked_by: null, locked_until: null, last_error: message }
        : {
            state: 'pending',
            run_at: new Date(Date.now() + retryInMs),
            locked_by: null,
            locked_until: null,
            last_error: message,
          },
    )
    .where('job_id', '=', job.job_id)
    .where('locked_by', '=', worker)
    .where('state', '=', 'running')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return 'lost';
  return last ? 'failed' : 'retry';
}
