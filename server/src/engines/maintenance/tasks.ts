import { z } from 'zod';
import { WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { readEvents, WORK_UNIT_EVENT_CHANNEL } from '../events/cursor.js';
import { enqueueMany } from '../jobs/queue.js';
import { defineTask, type TaskDefinition } from '../jobs/task.js';
import { reconcileChangeWindow } from './change-window.js';

/**
 * How a change's maintenance window follows the change: the engine reads work unit events through
 * its own cursor ('maintenance') rather than being enqueued by the edit that approves. Every way a
 * change moves (an approval, a decline, a state change, new planned times or relations, a bulk
 * edit, a change made by a rule's action) already writes its event in the edit's transaction, so
 * one reader sees them all without the work units area knowing about maintenance; and since each
 * job reconciles the change as it stands, a late, repeated or out-of-order event does no harm.
 *
 * For each batch of events, one `maintenance.change-window` job per change request (or per unit
 * that still has a window, in case it stopped being one) is enqueued in the cursor's transaction,
 * keyed by the unit and its newest event of the batch.
 */
export const MAINTENANCE_EVENTS_EVERY_MS = 5000;

export const changeWindowTask = defineTask({
  name: 'maintenance.change-window',
  payload: z.object({ workUnitId: z.number().int() }),
  attempts: 5,
  perform: async ({ workUnitId }, { db }) => {
    await reconcileChangeWindow(db, workUnitId);
  },
});

/** Reads the next work unit events through the maintenance cursor and enqueues the change windows to reconcile; returns how many events it read. */
export async function readMaintenanceEvents(db: Db, batchSize = 500): Promise<number> {
  let total = 0;
  for (let round = 0; round < 20; round += 1) {
    const read = await readEvents(db, 'maintenance', batchSize, async (events, trx) => {
      const all = scoped(trx, ALL_TENANTS);
      const newest = new Map<number, string>();
      for (const event of events) newest.set(event.work_unit_id, String(event.work_unit_event_id));
      const ids = [...newest.keys()];
      const changes = await all
        .selectFrom('work_unit')
        .select('work_unit_id')
        .where('work_unit_id', 'in', ids)
        .where('work_unit_type_id', '=', WORK_UNIT_TYPES.ChangeRequest)
        .execute();
      const windows = await all
        .selectFrom('rule')
        .select('change_work_unit_id')
        .where('change_work_unit_id', 'in', ids)
        .execute();
      const units = new Set([
        ...changes.map((row) => row.work_unit_id),
        ...windows.flatMap((row) => (row.change_work_unit_id === null ? [] : [row.change_work_unit_id])),
      ]);
      await enqueueMany(
        trx,
        changeWindowTask,
        [...units].map((workUnitId) => ({ key: `${workUnitId}:${newest.get(workUnitId)}`, payload: { workUnitId } })),
      );
    });
    total += read;
    if (read < batchSize) break;
  }
  return total;
}

export const maintenanceEventsTask = defineTask({
  name: 'maintenance.work-unit-events',
  payload: z.object({}),
  every: MAINTENANCE_EVENTS_EVERY_MS,
  wakeOn: WORK_UNIT_EVENT_CHANNEL,
  perform: async (_payload, { db }) => {
    await readMaintenanceEvents(db);
  },
});

/** The maintenance engine's tasks, run by the worker role. */
export const MAINTENANCE_TASKS: readonly TaskDefinition<unknown>[] = [maintenanceEventsTask, changeWindowTask];
