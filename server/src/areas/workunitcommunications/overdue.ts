import { z } from 'zod';
import { CLOSED_COMMUNICATION_STATUSES } from '@cfs/contracts/communications';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { enqueueMany } from '../../engines/jobs/queue.js';
import { defineTask } from '../../engines/jobs/task.js';
import { communicationEmailTask, type CommunicationEmailKind } from './communication-email.js';

/**
 * The overdue timer (beyond the spec): an open communication whose next update (or next internal
 * update) has passed tells its service manager (or the tenant's internal notification address)
 * once per due time.
 *
 * The sweep marks the due time announced (`next_update_notified = next_update`) in the same
 * transaction that enqueues the email job, on rows it locks with SKIP LOCKED: however many workers
 * sweep at once, each due time is claimed by one of them, and a row already marked no longer
 * matches. Saving the communication with a new next update re-arms it (the values differ again);
 * closing it (Resolved, Cancelled) takes it out of the sweep.
 */

export const OVERDUE_SWEEP_EVERY_MS = 60_000;
/** Rows one statement claims; a sweep goes on while batches come back full. */
const SWEEP_BATCH = 500;

const DUE_COLUMNS = {
  nextUpdateDue: { due: 'next_update', notified: 'next_update_notified', keyPart: 'next-update' },
  nextInternalUpdateDue: {
    due: 'next_internal_update',
    notified: 'next_internal_update_notified',
    keyPart: 'next-internal-update',
  },
} as const satisfies Partial<Record<CommunicationEmailKind, { due: string; notified: string; keyPart: string }>>;

type DueKind = keyof typeof DUE_COLUMNS;

/** The job key of one due time's notice: one email per communication, kind and due time. */
export const overdueKey = (kind: DueKind, workUnitCommunicationId: string, dueAt: Date): string =>
  `wucomm:${DUE_COLUMNS[kind].keyPart}:${workUnitCommunicationId}:${dueAt.toISOString()}`;

/** Claims one batch of unannounced due times of one kind and enqueues their notices; how many were claimed. */
async function claimDue(trx: Tx, kind: DueKind, now: Date): Promise<number> {
  const { due, notified } = DUE_COLUMNS[kind];
  const all = scoped(trx, ALL_TENANTS);
  const candidates = all
    .selectFrom('work_unit_communication')
    .select('work_unit_communication_id')
    .where('status', 'not in', CLOSED_COMMUNICATION_STATUSES)
    .where(due, 'is not', null)
    .where(due, '<', now)
    .where((eb) => eb(notified, 'is distinct from', eb.ref(due)))
    .orderBy(due)
    .limit(SWEEP_BATCH)
    .forUpdate()
    .skipLocked();
  const claimed = await all
    .updateTable('work_unit_communication')
    .set((eb) => ({ [notified]: eb.ref(due) }))
    .where('work_unit_communication_id', 'in', candidates)
    // Checked again on the locked row: another sweep may have announced it since the read.
    .where((eb) => eb(notified, 'is distinct from', eb.ref(due)))
    .returning(['work_unit_communication_id', 'tenant_id', due])
    .execute();
  const jobs = claimed.flatMap((row) => {
    const dueValue = row[due];
    if (dueValue === null) return [];
    const dueAt = new Date(dueValue);
    return [
      {
        payload: {
          kind,
          workUnitCommunicationId: row.work_unit_communication_id,
          tenantId: row.tenant_id,
          dueAt: dueAt.toISOString(),
          requestedBy: null,
        },
        key: overdueKey(kind, row.work_unit_communication_id, dueAt),
      },
    ];
  });
  await enqueueMany(trx, communicationEmailTask, jobs);
  return claimed.length;
}

/** One sweep: every unannounced passed due time of open communications, each announced once. Returns how many notices were queued. */
export async function sweepOverdueCommunications(db: Db, now = new Date()): Promise<number> {
  let total = 0;
  for (const kind of Object.keys(DUE_COLUMNS) as DueKind[]) {
    for (;;) {
      const claimed = await db.transaction().execute((trx) => claimDue(trx, kind, now));
      total += claimed;
      if (claimed < SWEEP_BATCH) break;
    }
  }
  return total;
}

export const overdueSweepTask = defineTask({
  name: 'workunitcommunications.overdue',
  payload: z.object({}),
  every: OVERDUE_SWEEP_EVERY_MS,
  perform: async (_payload, { db }) => {
    await sweepOverdueCommunications(db);
  },
});
