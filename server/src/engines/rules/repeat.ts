import { sql } from 'kysely';
import { z } from 'zod';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import type { Db } from '../../db/database.js';
import { enqueueMany } from '../jobs/queue.js';
import { defineTask } from '../jobs/task.js';
import { ruleActionTask } from './actions.js';
import { actionJobs } from './matches.js';
import { rulesFor } from './rule-cache.js';

/** How often due repeats are looked for: a repeat runs within this time of its due time. */
export const REPEAT_EVERY_MS = 10_000;
/** Matches a sweep repeats at most; the rest wait for the next one. */
export const REPEAT_SWEEP_MAX = 500;

/** Match actions that change state rather than tell someone: they never run again. */
const NOT_NOTIFYING = new Set<string>([BUILT_IN_ACTIONS.setColor.id, BUILT_IN_ACTIONS.createWorkUnit.id]);

/** Whether a rule action tells someone (Send Email, an HTTP call), and so repeats. */
export const isNotifying = (actionDefinitionId: string): boolean => !NOT_NOTIFYING.has(actionDefinitionId);

interface Due {
  rule_match_id: string;
  rule_id: string;
  tenant_id: string;
  subject_id: string;
  label: string | null;
  repeats: number;
}

/**
 * Repeat notifications (docs/features/rules.md "Repeat notifications"): the notifying match
 * actions of each open match run again once its tenant's `repeatEvery` has passed since they last
 * ran (or since it opened), while nobody has acknowledged it and no silence or maintenance holds it.
 * Due matches are claimed with SKIP LOCKED, their jobs keyed by repeat (`…:match:repeat:N:i`) and
 * enqueued in the transaction that moves `notified` on: several workers repeat each once.
 */
export async function repeatNotifications(db: Db, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Raw SQL: a claim with SKIP LOCKED joined to the tenants' policies; the engine repeats for
    // every tenant (it answers nobody), so it is unscoped by design.
    const { rows } = await sql<Due>`
      SELECT m.rule_match_id, m.rule_id, m.tenant_id, m.subject_id, m.label, m.repeats
      FROM rule_match m JOIN notification_policy p ON p.tenant_id = m.tenant_id
      WHERE p.repeat_seconds IS NOT NULL
        AND NOT m.completion_processed AND NOT m.pending AND NOT m.in_maintenance AND m.acknowledged IS NULL
        AND m.expires > ${now}
        AND coalesce(m.notified, m.created) <= ${now}::timestamptz - make_interval(secs => p.repeat_seconds)
      ORDER BY coalesce(m.notified, m.created)
      LIMIT ${REPEAT_SWEEP_MAX}
      FOR UPDATE OF m SKIP LOCKED`.execute(trx);
    if (rows.length === 0) return 0;
    const jobs = [];
    const repeated: string[] = [];
    for (const row of rows) {
      const rule = (await rulesFor(db, row.tenant_id, trx)).all.find((candidate) => candidate.ruleId === row.rule_id);
      const notifying = rule
        ? actionJobs(
            'match',
            { ...row, in_maintenance: false },
            rule,
            rule.matchActions,
            `:repeat:${row.repeats + 1}`,
          ).filter((_job, index) => isNotifying(rule.matchActions[index]!.ActionDefinitionId))
        : [];
      if (notifying.length > 0) repeated.push(row.rule_match_id);
      jobs.push(...notifying);
    }
    await enqueueMany(trx, ruleActionTask, jobs);
    // Each claimed match waits a whole period again; one that has nothing to repeat counts no repeat.
    await sql`
      UPDATE rule_match SET notified = ${now},
        repeats = repeats + CASE WHEN rule_match_id = ANY(${repeated}::uuid[]) THEN 1 ELSE 0 END
      WHERE rule_match_id = ANY(${rows.map((row) => row.rule_match_id)}::uuid[])`.execute(trx);
    return repeated.length;
  });
}

export const repeatTask = defineTask({
  name: 'rules.repeat',
  payload: z.object({}),
  every: REPEAT_EVERY_MS,
  perform: async (_payload, { db }) => {
    await repeatNotifications(db);
  },
});
