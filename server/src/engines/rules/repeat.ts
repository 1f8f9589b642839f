import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { enqueueMany } from '../jobs/queue.js';
import { defineTask } from '../jobs/task.js';
import { ruleActionTask } from './actions.js';
import { groupByOf, groupKeySql, groupNames, noticeJobs, rulesOf, type NoticeMember } from './groups.js';
import { isSilencedSql } from './silences.js';

/** How often due repeats are looked for: a repeat runs within this time of its due time. */
export const REPEAT_EVERY_MS = 10_000;
/** Matches a sweep repeats at most; the rest wait for the next one. */
export const REPEAT_SWEEP_MAX = 500;

interface Due extends NoticeMember {
  repeats: number;
  group_by: string | null;
  group_key: string;
}

/**
 * Repeat notifications (docs/features/rules.md "Repeat notifications"): the notifying match
 * actions of each open match run again once its tenant's `repeatEvery` has passed since they last
 * ran (or since it opened), while nobody has acknowledged it and no silence or maintenance holds it;
 * a match held for its group's first notification is not due. Under a policy that groups, the
 * matches due at once repeat as one notification per group, as they were first told of.
 * Due matches are claimed with SKIP LOCKED, their jobs keyed by repeat (`…:match:repeat:N:i`) and
 * enqueued in the transaction that moves `notified` on: several workers repeat each once.
 */
export async function repeatNotifications(db: Db, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // Raw SQL: a claim with SKIP LOCKED joined to the tenants' policies; the engine repeats for
    // every tenant (it answers nobody), so it is unscoped by design.
    const { rows } = await sql<Due>`
      SELECT m.rule_match_id, m.rule_id, m.tenant_id, m.subject_id, m.label, m.repeats, p.group_by,
        ${groupKeySql(sql`p.group_by`)} AS group_key
      FROM rule_match m JOIN notification_policy p ON p.tenant_id = m.tenant_id
      WHERE p.repeat_seconds IS NOT NULL
        AND NOT m.completion_processed AND NOT m.pending AND NOT m.in_maintenance AND m.acknowledged IS NULL
        AND NOT ${isSilencedSql((column) => sql.ref(`m.${column}`), now)}
        AND m.expires > ${now}
        AND coalesce(m.notified, m.created) <= ${now}::timestamptz - make_interval(secs => p.repeat_seconds)
        AND (m.grouped IS NULL OR m.notified IS NOT NULL)
      ORDER BY coalesce(m.notified, m.created)
      LIMIT ${REPEAT_SWEEP_MAX}
      FOR UPDATE OF m SKIP LOCKED`.execute(trx);
    if (rows.length === 0) return 0;
    const rules = await rulesOf(db, trx, rows);
    const groups = new Map<string, Due[]>();
    for (const row of rows) {
      const key = row.group_by ? `${row.tenant_id} ${row.group_key}` : row.rule_match_id;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const nameOf = await groupNames(
      trx,
      rows.flatMap((row) => {
        const by = groupByOf(row.group_by);
        return by ? [{ by, key: row.group_key }] : [];
      }),
      rules,
    );
    const jobs = [];
    const repeated = new Set<string>();
    for (const members of groups.values()) {
      const by = groupByOf(members[0]!.group_by);
      const notice = noticeJobs(
        by ? { by, name: nameOf(by, members[0]!.group_key) } : null,
        members,
        rules,
        (member) => `:repeat:${member.repeats + 1}`,
      );
      // Each notification says which repeat it is (the first member's), so that it reads as a reminder.
      const repeatOf = new Map(members.map((member) => [member.rule_match_id, member.repeats + 1]));
      jobs.push(
        ...notice.jobs.map((job) => ({
          ...job,
          payload: { ...job.payload, repeat: repeatOf.get(job.payload.ruleMatchId) ?? 1 },
        })),
      );
      for (const id of notice.notified) repeated.add(id);
    }
    await enqueueMany(trx, ruleActionTask, jobs);
    // Each claimed match waits a whole period again; one that has nothing to repeat counts no repeat.
    await sql`
      UPDATE rule_match SET notified = ${now},
        repeats = repeats + CASE WHEN rule_match_id = ANY(${[...repeated]}::uuid[]) THEN 1 ELSE 0 END
      WHERE rule_match_id = ANY(${rows.map((row) => row.rule_match_id)}::uuid[])`.execute(trx);
    return repeated.size;
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
