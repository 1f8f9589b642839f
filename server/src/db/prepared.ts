import { createHash } from 'node:crypto';
import type pg from 'pg';
import { sql, type RawBuilder } from 'kysely';

/** The mark that asks for a statement's plan to be kept on its connection. */
const MARK = '/* prepared */ ';

/** Statements one connection keeps; a marked text beyond them runs as an ordinary statement. */
export const PREPARED_PER_CONNECTION = 32;

/**
 * A statement run as a named prepared statement on each connection of the pool (see
 * `keepPreparedPlans`): parsed once per connection, and planned once when the server finds its
 * generic plan no dearer than planning each run (after five runs), instead of parsed and planned
 * on every run. For a hot statement whose text never changes (only its parameters do) and whose
 * planning costs more than its running: ingestion's batch with its matches is nine common table
 * expressions around a few rows.
 *
 * Limits: the text must not vary from call to call (no `sql.raw`, `sql.lit` or lists of varying
 * length in it), or each text takes a place of its own until a connection's places are used up; a
 * statement run with a cancel signal (`executeCancellable`) carries that mark first and is not
 * prepared; a pooler that hands one session's statements to several server connections
 * (PgBouncer in transaction mode) does not keep prepared statements.
 */
export function prepared<T>(statement: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(MARK)}${statement}`;
}

type Query = pg.PoolClient['query'];

/**
 * Runs marked statements (`prepared`) of a new pool connection under a name drawn from their text,
 * so that the driver parses each once on that connection and the server keeps its plan. Only the
 * two-argument form (text, values) that the query builder uses is named; every other form passes
 * through as it is.
 */
export function keepPreparedPlans(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const names = new Map<string, string>();
  let warned = false;
  const named = (...args: unknown[]) => {
    const [text, values] = args;
    if (
      typeof text !== 'string' ||
      !text.startsWith(MARK) ||
      !(values === undefined || Array.isArray(values)) ||
      args.length > 2
    )
      return query(...args);
    let name = names.get(text);
    if (!name) {
      if (names.size >= PREPARED_PER_CONNECTION) {
        if (!warned)
          console.warn(
            `A connection keeps ${PREPARED_PER_CONNECTION} prepared statements: a marked statement whose text varies runs unprepared.`,
          );
        warned = true;
        return query(text, values);
      }
      names.set(text, (name = `cfs_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`));
    }
    return query({ name, text, values });
  };
  client.query = named as Query;
}
