import { sql } from 'kysely';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { enqueueMany } from '../jobs/queue.js';
import { ruleActionTask } from './actions.js';
import { holdsFor, recoveredBy, type CompiledRule } from './compile.js';
import { subjectsNow } from './maintenance-end.js';
import { actionJobs, type MatchOfRule } from './matches.js';
import { replayRecovering, replayRecoveringDue, type ReplayedMatch } from './match-semantics.js';
import { rulesFor } from './rule-cache.js';

/** Recovering matches (open or pending) a sweep reads and writes at a time. */
export const RECOVERY_SWEEP_MAX = 5000;

interface Recovering extends MatchOfRule {
  pending: boolean;
  first_match: Date;
  last_match: Date;
  expires: Date;
}

export interface RecoverySweep {
  opened: number;
  recovered: number;
  cancelled: number;
}

/**
 * The matches that close on recovery, judged against their subject's latest packet
 * (docs/features/rules.md "A match's life"). Ingestion opens and raises them as it opens and raises any
 * match; what a packet that does not match says, and what time alone decides, is this sweep's, run
 * before the expiry sweep every few seconds. Each match is played forward by the functions the
 * Test's replay plays (match-semantics.ts): its subject's packet newer than its last match, then
 * the time now. From that:
 * - a pending match whose conditions held for the rule's pending period opens (its match actions
 *   enqueued); one whose newer packet no longer holds goes, with nothing run;
 * - an open match whose newer packet recovers it closes as `recovered` at that packet's time (its
 *   expiration actions enqueued); a newer packet that neither holds nor recovers (between the
 *   thresholds) keeps it open and moves its "no data" time to a lifetime after that packet;
 * - one with no packet for the lifetime is left to the expiry sweep, which closes it as `noData`.
 * Only the latest packet is read: a subject that recovered and matched again between two sweeps
 * stays open. Each write is guarded by what it was decided on (the match's last match, its pending
 * state), so that a packet ingested meanwhile, or another worker's sweep, wins; the decisions of a
 * sweep are written in one transaction with the jobs they enqueue.
 */
export async function sweepRecovery(db: Db, now = new Date(), batchSize = RECOVERY_SWEEP_MAX): Promise<RecoverySweep> {
  const total: RecoverySweep = { opened: 0, recovered: 0, cancelled: 0 };
  // Every recovering match, a batch at a time in (rule, subject) order, so that none waits behind others.
  let after: Recovering | undefined;
  for (;;) {
    const batch = await sweepBatch(db, now, batchSize, after);
    total.opened += batch.sweep.opened;
    total.recovered += batch.sweep.recovered;
    total.cancelled += batch.sweep.cancelled;
    if (!batch.last) return total;
    after = batch.last;
  }
}

/** One batch of `sweepRecovery` after `after` (by rule and subject); `last`: its last row when it was full. */
async function sweepBatch(
  db: Db,
  now: Date,
  batchSize: number,
  after: Recovering | undefined,
): Promise<{ sweep: RecoverySweep; last?: Recovering }> {
  // The engine looks at matches of every tenant (it answers nobody): unscoped by design.
  let query = scoped(db, ALL_TENANTS)
    .selectFrom('rule_match')
    .select([
      'rule_match_id',
      'rule_id',
      'tenant_id',
      'subject_id',
      'label',
      'in_maintenance',
      'pending',
      'first_match',
      'last_match',
      'expires',
    ])
    .where('recovers', '=', true)
    .where('completion_processed', '=', false);
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('rule_id', 'subject_id'), '>', eb.tuple(after.rule_id, after.subject_id)),
    );
  const rows: Recovering[] = await query.orderBy('rule_id').orderBy('subject_id').limit(RECOVERY_SWEEP_MAX).execute();
  const last = rows.length === RECOVERY_SWEEP_MAX ? rows.at(-1) : undefined;
  const done = (sweep: RecoverySweep) => (last ? { sweep, last } : { sweep });
  if (rows.length === 0) return done({ opened: 0, recovered: 0, cancelled: 0 });
  const subjects = await subjectsNow(db, rows, now);
  const promote: { row: Recovering; rule: CompiledRule }[] = [];
  const cancel: Recovering[] = [];
  const recover: { row: Recovering; rule: CompiledRule; at: Date }[] = [];
  const extend: { row: Recovering; expires: Date }[] = [];
  for (const row of rows) {
    const rule = (await rulesFor(db, row.tenant_id)).all.find((candidate) => candidate.ruleId === row.rule_id);
    // A disabled or removed rule, or one changed to close on expiry, decides no more: its match runs out as it is.
    if (!rule?.recovers) continue;
    // The match as the replay holds it, played forward by the same functions the Test plays:
    // the subject's packet newer than its last match (if any), then the time now.
    const subject = subjects.get(row.rule_match_id)!;
    const match: ReplayedMatch = {
      first: row.first_match.getTime(),
      last: row.last_match.getTime(),
      count: 0,
      expires: row.expires.getTime(),
      closed: false,
      pending: row.pending,
    };
    const played = [match];
    if (subject.ageSeconds !== undefined && subject.timestamp > row.last_match) {
      const conditionsHold = holdsFor(rule, subject);
      replayRecovering(played, subject.timestamp.getTime(), rule, {
        holds: conditionsHold && rule.inTime(subject.timestamp),
        conditionsHold,
        recovered: recoveredBy(rule, subject),
      });
    }
    replayRecoveringDue(played, now.getTime(), rule);
    if (played.length === 0) {
      cancel.push(row);
      continue;
    }
    if (row.pending && !match.pending) promote.push({ row, rule });
    // A match that ran out of data is closed by the expiry that follows (closeDue), as any other.
    if (match.closed && match.outcome === 'recovered') recover.push({ row, rule, at: new Date(match.expires) });
    else if (!match.closed && match.expires > row.expires.getTime())
      extend.push({ row, expires: new Date(match.expires) });
  }
  if (promote.length + cancel.length + recover.length + extend.length === 0)
    return done({ opened: 0, recovered: 0, cancelled: 0 });

  const sweep = await db.transaction().execute(async (trx) => {
    const ids = (list: readonly { row: Recovering }[] | readonly Recovering[]) =>
      list.map((entry) => ('row' in entry ? entry.row : entry).rule_match_id);
    const lasts = (list: readonly { row: Recovering }[] | readonly Recovering[]) =>
      list.map((entry) => ('row' in entry ? entry.row : entry).last_match.toISOString());
    // Raw SQL below: guarded writes of the sweep's decisions from arrays (unnest), each row named by its id.
    const cancelled = cancel.length
      ? (
          await sql`
            DELETE FROM rule_match m USING unnest(${ids(cancel)}::uuid[], ${lasts(cancel)}::timestamptz[]) AS x(id, last)
            WHERE m.rule_match_id = x.id AND m.last_match = x.last AND m.pending AND NOT m.completion_processed`.execute(
            trx,
          )
        ).numAffectedRows
      : 0n;
    const opened = promote.length
      ? (
          await sql<Recovering>`
            UPDATE rule_match SET pending = false, notified = ${now}, modified = now()
            WHERE rule_match_id = ANY(${ids(promote)}::uuid[]) AND pending AND NOT completion_processed
            RETURNING rule_match_id, rule_id, tenant_id, subject_id, label, in_maintenance`.execute(trx)
        ).rows
      : [];
    const recovered = recover.length
      ? (
          await sql<Recovering>`
            UPDATE rule_match m SET completion_processed = true, outcome = 'recovered',
              expires = least(m.expires, x.at), modified = now()
            FROM unnest(${ids(recover)}::uuid[], ${lasts(recover)}::timestamptz[], ${recover.map((entry) => entry.at.toISOString())}::timestamptz[]) AS x(id, last, at)
            WHERE m.rule_match_id = x.id AND m.last_match = x.last AND NOT m.pending AND NOT m.completion_processed
            RETURNING m.rule_match_id, m.rule_id, m.tenant_id, m.subject_id, m.label, m.in_maintenance`.execute(trx)
        ).rows
      : [];
    if (extend.length)
      await sql`
        UPDATE rule_match m SET expires = greatest(m.expires, x.e), modified = now()
        FROM unnest(${ids(extend)}::uuid[], ${extend.map((entry) => entry.expires.toISOString())}::timestamptz[]) AS x(id, e)
        WHERE m.rule_match_id = x.id AND NOT m.completion_processed AND m.expires < x.e`.execute(trx);
    const rules = new Map([...promote, ...recover].map(({ rule }) => [rule.ruleId, rule]));
    await enqueueMany(trx, ruleActionTask, [
      ...opened.flatMap((row) => {
        const rule = rules.get(row.rule_id)!;
        return actionJobs('match', row, rule, rule.matchActions);
      }),
      ...recovered.flatMap((row) => {
        const rule = rules.get(row.rule_id)!;
        return actionJobs('expiration', row, rule, rule.expirationActions);
      }),
    ]);
    return { opened: opened.length, recovered: recovered.length, cancelled: Number(cancelled ?? 0n) };
  });
  return done(sweep);
}
