import { sql } from 'kysely';
import { z } from 'zod';
import { sweepHeartbeats } from './heartbeat.js';
import { defineTask } from './task.js';

/** Finished jobs are kept a week for looking into, then removed (hourly), with workers long gone. */
export const deleteFinishedJobs = defineTask({
  name: 'housekeeping.finished-jobs',
  payload: z.object({}),
  every: 60 * 60_000,
  perform: async (_payload, { db }) => {
    await db
      .deleteFrom('job')
      .where('state', 'in', ['done', 'failed'])
      .where('finished', '<', sql<Date>`now() - interval '7 days'`)
      .execute();
    await sweepHeartbeats(db);
  },
});
