import { createHash } from 'node:crypto';
import type pg from 'pg';
import { sql, type RawBuilder } from 'kysely';

/** The mark that asks for a statement's plan to be kept on its connection. */
const MARK = '/* prepared */ ';

/**
 * A statement run as a named prepared statement on each connection of the pool (see
 * `keepPreparedPlans`): parsed once per connection, and after a few runs planned once, instead of
 * parsed and planned on every run. For a hot statement whose text never changes (only its
 * parameters do) and whose planning costs more than its running: ingestion's batch with its
 * matches is nine common table expressions around a few rows.
 */
export function prepared<T>(statement: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(MARK)}${statement}`;
}

type Query = pg.PoolClient['query'];

/**
 * Runs marked statements (`prepared`) of a new pool connection under a name drawn from their text,
 * so that the driver parses each once on that connection and the server keeps its plan.
 */
export function keepPreparedPlans(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const names = new Map<string, string>();
  const named = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text !== 'string' || !text.startsWith(MARK) || !(values === undefined || Array.isArray(values)) || args.length > 2) return query(...args);
    let name = names.get(text);
    if (!name) names.set(text, (name = `cfs_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`));
    return query({ name, text, values });
  };
  client.query = named as Query;
}
