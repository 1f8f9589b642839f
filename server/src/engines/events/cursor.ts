import { sql, type Selectable } from 'kysely';
import type { Db, Tx } from '../../db/database.js';
import type { DB } from '../../db/schema.js';

export type WorkUnitEvent = Selectable<DB['work_unit_event']>;

/** Notified by each transaction that records work unit events, as it commits (migration 0030): the consumers' `wakeOn`. */
export const WORK_UNIT_EVENT_CHANNEL = 'work_unit_event';

/**
 * Hands the next work unit events to one consumer (an engine: protocols, communications, rules…),
 * each event once per consumer, in the order their transactions finished.
 *
 * Event ids are handed out when rows are inserted, not when they commit, so a later id can commit
 * first; reading "id > last id" would skip the earlier one when it commits late. Each event carries
 * the id of the transaction that wrote it (`tx_id`), and only events of transactions older than
 * every transaction still running are read (`tx_id < pg_snapshot_xmin`): no event can appear
 * behind the cursor any more. The cursor moves in (tx_id, id) order, in the same transaction as
 * the handler's own writes, so a handler that fails leaves its events to be read again.
 *
 * The consumer's cursor row is locked with SKIP LOCKED: a second worker running the same consumer
 * finds it busy and reads nothing (0), instead of reading the same events.
 *
 * @example
 *   await readEvents(db, 'protocols', 100, async (events, trx) => { for (const event of events) await startProtocols(trx, event); });
 */
export async function readEvents(
  db: Db,
  consumer: string,
  batchSize: number,
  handle: (events: WorkUnitEvent[], trx: Tx) => Promise<void>,
): Promise<number> {
  await db
    .insertInto('engine_cursor')
    .values({ consumer })
    .onConflict((oc) => oc.column('consumer').doNothing())
    .execute();
  return db.transaction().execute(async (trx) => {
    const cursor = await trx
      .selectFrom('engine_cursor')
      .select(['last_tx', 'last_id'])
      .where('consumer', '=', consumer)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!cursor) return 0;
    const { rows: events } = await sql<WorkUnitEvent>`
      SELECT * FROM work_unit_event
      WHERE (tx_id, work_unit_event_id) > (${cursor.last_tx}::xid8, ${cursor.last_id}::bigint)
        AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY tx_id, work_unit_event_id
      LIMIT ${batchSize}`.execute(trx);
    const last = events.at(-1);
    if (!last) return 0;
    await handle(events, trx);
    await trx
      .updateTable('engine_cursor')
      .set({ last_tx: last.tx_id, last_id: last.work_unit_event_id, updated: new Date() })
      .where('consumer', '=', consumer)
      .execute();
    return events.length;
  });
}
