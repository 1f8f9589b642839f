import os from 'node:os';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** How often a worker says it is alive, and how old its last word may be for it to count as running. */
export const HEARTBEAT_EVERY_MS = 5_000;
export const HEARTBEAT_FRESH_MS = 30_000;

/**
 * Keeps `worker_heartbeat` saying that this worker runs (GET /readyz reads it); the returned
 * function stops it and removes the row. A killed worker's row goes stale and is swept later.
 */
export function startHeartbeat(db: Db, workerId: string, onError: (error: unknown) => void): () => Promise<void> {
  const beat = () =>
    db
      .insertInto('worker_heartbeat')
      .values({ worker_id: workerId, host: os.hostname(), pid: process.pid })
      .onConflict((oc) => oc.column('worker_id').doUpdateSet({ seen: sql`now()` }))
      .execute()
      .then(() => undefined, onError);
  let last = beat();
  const timer = setInterval(() => {
    last = last.then(beat);
  }, HEARTBEAT_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await last;
    await db.deleteFrom('worker_heartbeat').where('worker_id', '=', workerId).execute().catch(onError);
  };
}

/** Workers that said they were alive within HEARTBEAT_FRESH_MS. */
export async function liveWorkers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('worker_heartbeat')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('seen', '>', sql<Date>`now() - make_interval(secs => ${HEARTBEAT_FRESH_MS / 1000})`)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Forgets workers not heard from for an hour (killed, or their machine gone). */
export async function sweepHeartbeats(db: Db): Promise<void> {
  await db
    .deleteFrom('worker_heartbeat')
    .where('seen', '<', sql<Date>`now() - interval '1 hour'`)
    .execute();
}
