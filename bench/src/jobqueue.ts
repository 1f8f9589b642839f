import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { defaultConcurrency, startJobWorker } from '../../server/src/engines/jobs/worker.js';
import { deleteFinishedJobs } from '../../server/src/engines/jobs/retention.js';
import { defineTask } from '../../server/src/engines/jobs/task.js';
import type { BenchPortal } from './bench-portal.js';
import type { RecordFigure } from './fleet.js';
import { inTurns } from './measure.js';

export interface JobQueueOptions {
  /** Jobs a round; each round is run once each way. */
  jobs: number;
  /** Rounds each way, an even number, so that each way goes first as often. */
  rounds: number;
  /** Jobs the worker runs at once besides its default; the bare loop uses as many connections. */
  concurrencies: readonly number[];
  /**
   * Jobs the bare loop claims and deletes a statement: 2 holds at most as many jobs at once as the
   * worker (twice its concurrency) through as many connections as it runs jobs at once.
   */
  perStatement: number;
}

/** A job that does nothing: what is left is the queue's own cost (claim, lease, outcome). */
const noOp = defineTask({
  name: 'bench.no-op',
  // An empty payload, checked as a task's payload is (the housekeeping task's schema).
  payload: deleteFinishedJobs.payload,
  perform: async () => undefined,
});

/**
 * The job queue: `jobs` no-op jobs run by the job worker (startJobWorker, at its default
 * concurrency and at each of `concurrencies`), from its start until it has stopped with every
 * outcome written, against a bare loop that claims and deletes them with SKIP LOCKED through as many
 * connections, in turns. Each round starts from the same table: the round's jobs are enqueued
 * before it, and removed (and the table vacuumed) after it.
 */
export async function jobQueue(portal: BenchPortal, record: RecordFigure, options: JobQueueOptions): Promise<void> {
  const { db, databaseUrl } = portal.runtime;
  const enqueueRound = async () => {
    const prefix = randomUUID();
    await sql`INSERT INTO job (task, key, max_attempts)
      SELECT ${noOp.name}, ${prefix} || ':' || g, ${noOp.attempts} FROM generate_series(1, ${options.jobs}) AS g`.execute(
      db,
    );
    await sql`ANALYZE job`.execute(db);
  };
  const clearRound = async () => {
    await sql`DELETE FROM job WHERE task = ${noOp.name}`.execute(db);
    await sql`VACUUM ANALYZE job`.execute(db);
  };
  const round = async (work: () => Promise<number>) => {
    await enqueueRound();
    try {
      return await work();
    } finally {
      await clearRound();
    }
  };

  const byWorker = (concurrency: number) =>
    round(async () => {
      let ran = 0;
      let allRan: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (allRan = resolve));
      const task = defineTask({
        ...noOp,
        perform: async () => {
          ran += 1;
          if (ran === options.jobs) allRan();
        },
      });
      const started = process.hrtime.bigint();
      const worker = startJobWorker({
        db,
        tasks: [task],
        concurrency,
        log: (message, error) => console.error(message, error ?? ''),
      });
      await finished;
      await worker.stop();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const done = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM job WHERE task = ${noOp.name} AND state = 'done'`.execute(db);
      if (done.rows[0]?.n !== options.jobs)
        throw new Error(`The worker ran ${ran} jobs and marked ${done.rows[0]?.n ?? 0} done, not ${options.jobs}`);
      return seconds;
    });

  const byBareLoop = (connections: number) =>
    round(async () => {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
      // Connected before the clock starts, as the worker's pool is.
      const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
      try {
        let deleted = 0;
        const started = process.hrtime.bigint();
        await Promise.all(
          clients.map(async (client) => {
            for (;;) {
              const { rowCount } = await client.query(
                `DELETE FROM job WHERE job_id IN (
                   SELECT job_id FROM job WHERE state = 'pending' AND task = $1 AND run_at <= now()
                   ORDER BY run_at FOR UPDATE SKIP LOCKED LIMIT $2)
                 RETURNING job_id, task, key, payload, attempts, max_attempts, request_id`,
                [noOp.name, options.perStatement],
              );
              if (!rowCount) return;
              deleted += rowCount;
            }
          }),
        );
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        if (deleted !== options.jobs) throw new Error(`The bare loop took ${deleted} jobs, not ${options.jobs}`);
        return seconds;
      } finally {
        for (const client of clients) client.release();
        await pool.end();
      }
    });

  const standard = defaultConcurrency(db);
  for (const concurrency of [standard, ...options.concurrencies.filter((c) => c !== standard)]) {
    const { as: worker, bs: bare } = await inTurns(
      options.rounds,
      () => byWorker(concurrency),
      () => byBareLoop(concurrency),
    );
    const total = options.jobs * options.rounds;
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    record({
      name: `no-op jobs run by the job worker, ${concurrency} at once${concurrency === standard ? ' (its default)' : ''}`,
      value: total / sum(worker),
      unit: 'jobs/s',
      baselineName: `bare SKIP LOCKED claim-and-delete, ${options.perStatement} a statement (${concurrency} connections)`,
      baseline: total / sum(bare),
      target: '≥ 0.6',
    });
  }
}
