import type { z } from 'zod';
import type { Db } from '../../db/database.js';

/** What a task's perform sees besides its payload. */
export interface TaskContext {
  db: Db;
  jobId: number;
  /** The idempotency key the job was enqueued with. */
  key: string;
  /** 1 on the first run; a job whose worker died runs again with the next number. */
  attempt: number;
}

/**
 * A named background task (DESIGN: engines are named tasks). `perform` runs outside any
 * transaction and may run more than once for one job (a worker can die after the work and before
 * marking it done), so it must be idempotent: check-then-write under the job's key, upserts.
 *
 * @example
 *   export const deliverWebhook = defineTask({
 *     name: 'actions.deliver-webhook',
 *     payload: z.object({ actionRunId: z.number() }),
 *     attempts: 5,
 *     perform: async ({ actionRunId }, { db }) => { ... },
 *     onFailed: async ({ actionRunId }, error, { db }) => { ... },
 *   });
 */
export interface TaskDefinition<P = unknown> {
  readonly name: string;
  readonly payload: z.ZodType<P>;
  // Methods, not function properties: a task of any payload then fits a list of tasks (unknown payloads).
  perform(payload: P, context: TaskContext): Promise<void>;
  /** Runs in all; default 3. */
  readonly attempts: number;
  /** Milliseconds to wait before attempt `attempt + 1`; default exponential from 1 s, capped at 5 minutes. */
  readonly backoff: (attempt: number) => number;
  /** Called once, after the last attempt failed. */
  onFailed?(payload: P, error: unknown, context: TaskContext): Promise<void>;
  /** A recurring task fires once per period across every worker process (the key is the period's start). */
  readonly every?: number;
  /**
   * A channel whose notifications also start the task, at once: each notification's payload (the
   * id of the transaction that sent it) keys one job, whichever workers hear it. A worker that
   * was not listening misses it, so such a task recurs as well (`every`).
   */
  readonly wakeOn?: string;
}

export type TaskDeclaration<P> = Pick<TaskDefinition<P>, 'name' | 'payload' | 'perform'> &
  Partial<Omit<TaskDefinition<P>, 'name' | 'payload' | 'perform'>>;

export const exponentialBackoff = (attempt: number): number => Math.min(1000 * 2 ** (attempt - 1), 5 * 60_000);

export function defineTask<P>(declaration: TaskDeclaration<P>): TaskDefinition<P> {
  const attempts = declaration.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new Error(`Task ${declaration.name}: attempts must be a whole number ≥ 1`);
  return { ...declaration, attempts, backoff: declaration.backoff ?? exponentialBackoff };
}
