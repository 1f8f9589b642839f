import { sql, type RawBuilder } from 'kysely';
import type { Db, Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
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

/** An attempt this worker holds: the job, and which of its attempts (a job taken over and claimed again is another attempt). */
export interface HeldAttempt {
  job_id: number;
  attempts: number;
}

/**
 * The rows of the attempts `held` that `worker` still holds, locked in the order of their ids, as
 * `mine(job_id)`: a worker's statements over many of its jobs at once (renewing their leases,
 * writing their outcomes) may run side by side, and taking the rows in one order keeps them from
 * waiting on each other in a circle (a deadlock, which would fail one of them).
 */
function mine(worker: string, held: readonly HeldAttempt[]): RawBuilder<unknown> {
  return sql`(
      SELECT job.job_id FROM job
      JOIN unnest(${sql.val(held.map((h) => h.job_id))}::bigint[], ${sql.val(held.map((h) => h.attempts))}::int[])
        AS held(job_id, attempts) ON held.job_id = job.job_id AND held.attempts = job.attempts
      WHERE job.locked_by = ${worker} AND job.state = 'running'
      ORDER BY job.job_id
      FOR UPDATE OF job) AS mine`;
}

/** The claim (see claimJobs), leaving out the jobs `except`. */
function claimUpdate(
  worker: string,
  tasks: readonly string[],
  limit: number,
  leaseMs: number,
  except: readonly number[],
): RawBuilder<ClaimedJob> {
  return sql<ClaimedJob>`
    UPDATE job SET state = 'running', attempts = attempts + 1, locked_by = ${worker},
      locked_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE job_id IN (
      SELECT job_id FROM job
      WHERE state IN ('pending', 'running') AND task = ANY(${sql.val(tasks)}::text[])
        AND ((state = 'pending' AND run_at <= now()) OR (state = 'running' AND locked_until < now()))
        AND job_id <> ALL(${sql.val(except)}::bigint[])
      ORDER BY run_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING job_id, task, key, payload, attempts, max_attempts, request_id`;
}

/** Marks done the attempts `held` that this worker still holds; returns their ids. */
function completeUpdate(worker: string, held: readonly HeldAttempt[]): RawBuilder<{ job_id: number }> {
  return sql<{ job_id: number }>`
    UPDATE job SET state = 'done', finished = now(), locked_by = NULL, locked_until = NULL, last_error = NULL
    FROM ${mine(worker, held)}
    WHERE job.job_id = mine.job_id
    RETURNING job.job_id`;
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
  const { rows } = await claimUpdate(worker, tasks, limit, leaseMs, []).execute(db);
  return rows;
}

/**
 * Marks done the attempts that finished (as completeJobs) and claims the next jobs (as claimJobs)
 * in one statement: one commit, where a worker whose jobs are quick would otherwise wait for two.
 */
export async function completeAndClaim(
  db: Db,
  worker: string,
  finished: readonly HeldAttempt[],
  tasks: readonly string[],
  limit: number,
  leaseMs: number,
): Promise<{ done: Set<number>; claimed: ClaimedJob[] }> {
  if (finished.length === 0) return { done: new Set(), claimed: await claimJobs(db, worker, tasks, limit, leaseMs) };
  if (limit <= 0 || tasks.length === 0) return { done: await completeJobs(db, worker, finished), claimed: [] };
  // The finished jobs are left out of the claim: one statement may not write a row twice.
  const except = finished.map((h) => h.job_id);
  const { rows } = await sql<{ done: number[]; claimed: ClaimedJob[] }>`
    WITH done AS (${completeUpdate(worker, finished)}), claimed AS (${claimUpdate(worker, tasks, limit, leaseMs, except)})
    SELECT (SELECT coalesce(json_agg(done.job_id), '[]') FROM done) AS done,
      (SELECT coalesce(json_agg(claimed), '[]') FROM claimed) AS claimed`.execute(db);
  const row = rows[0];
  return { done: new Set(row?.done), claimed: row?.claimed ?? [] };
}

/**
 * Extends the leases of the attempts this worker still holds, in one statement; returns the ids of
 * those it still held (another worker took over the rest when their lease ran out).
 */
export async function extendLeases(
  db: Db,
  worker: string,
  held: readonly HeldAttempt[],
  leaseMs: number,
): Promise<Set<number>> {
  if (held.length === 0) return new Set();
  const { rows } = await prepared(sql<{ job_id: number }>`
    UPDATE job SET locked_until = now() + make_interval(secs => ${leaseMs / 1000})
    FROM ${mine(worker, held)}
    WHERE job.job_id = mine.job_id
    RETURNING job.job_id`).execute(db);
  return new Set(rows.map((row) => row.job_id));
}

/**
 * Marks done, in one statement, the attempts that finished, each only if this worker still holds
 * that attempt: an attempt's outcome is written once, by its worker. Returns the ids marked done.
 */
export async function completeJobs(db: Db, worker: string, held: readonly HeldAttempt[]): Promise<Set<number>> {
  if (held.length === 0) return new Set();
  const { rows } = await prepared(completeUpdate(worker, held)).execute(db);
  return new Set(rows.map((row) => row.job_id));
}

/**
 * Gives back claimed attempts that never started (the worker is stopping): the jobs are pending
 * again at once, for any worker, and the attempt that did not run is not counted.
 */
export async function releaseJobs(db: Db, worker: string, held: readonly HeldAttempt[]): Promise<number> {
  if (held.length === 0) return 0;
  const { rows } = await sql<{ job_id: number }>`
    UPDATE job SET state = 'pending', attempts = job.attempts - 1, locked_by = NULL, locked_until = NULL
    FROM ${mine(worker, held)}
    WHERE job.job_id = mine.job_id
    RETURNING job.job_id`.execute(db);
  return rows.length;
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
