import { randomUUID } from 'node:crypto';
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import { createQueryId, sql } from 'kysely';

/** How often a cancel is sent again while the statement has not ended. */
const CANCEL_RETRY_MS = 50;

/**
 * Runs one statement that is cancelled on the server when `signal` aborts (its caller went away).
 *
 * A cancel (pg_cancel_backend) only stops a statement the server has begun: one sent while the
 * statement is still on its way, or waiting for a busy machine to schedule its backend, is ignored,
 * and the statement then runs to its end. So the statement carries a mark of its own in its text,
 * and on abort the backends showing that mark as their active statement are cancelled, again every
 * CANCEL_RETRY_MS until the statement has ended. A statement not yet sent when the caller left is
 * never sent. The cancel runs on the same server as the statement (a replica's reads on the replica).
 * Either way the promise rejects with the signal's reason.
 *
 * @example
 *   const result = await executeCancellable(reader, compiled, clientGone(reply));
 */
export async function executeCancellable<DB, R>(
  db: Kysely<DB>,
  statement: CompiledQuery<R>,
  signal?: AbortSignal,
): Promise<QueryResult<R>> {
  if (!signal) return db.executeQuery<R>({ ...statement, queryId: createQueryId() });
  signal.throwIfAborted();
  const mark = `/* cancellable ${randomUUID()} */ `;
  let ended = false;
  const running = db
    .executeQuery<R>({ ...statement, sql: mark + statement.sql, queryId: createQueryId() })
    .finally(() => {
      ended = true;
    });
  const cancel = async () => {
    while (!ended) {
      await sql`SELECT pg_cancel_backend(pid) FROM pg_stat_activity
        WHERE state = 'active' AND starts_with(query, ${mark}) AND pid <> pg_backend_pid()`
        .execute(db)
        .catch(() => undefined);
      if (!ended) await new Promise((resolve) => setTimeout(resolve, CANCEL_RETRY_MS));
    }
  };
  const onAbort = () => void cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await running;
  } catch (error) {
    // Cancelled because its caller left: the caller's reason, not the server's "canceling statement".
    if (signal.aborted) throw signal.reason;
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
