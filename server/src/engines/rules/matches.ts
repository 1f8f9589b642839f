import { sql, type RawBuilder } from 'kysely';
import type { MatchReason, RuleAction } from '@cfs/contracts/rules';
import type { Db, Tx } from '../../db/database.js';
import { enqueueInStatement, enqueueMany } from '../jobs/queue.js';
import type { CompiledRule } from './compile.js';
import { ruleActionTask, type RuleActionJob } from './actions.js';
import { expiresAfter, hasRunOutSql, isOpenSql, raisedExpiresSql } from './match-semantics.js';

/** One rule matching one subject, as evaluation found it: all its packets of a batch folded together. */
export interface MatchCandidate {
  rule: CompiledRule;
  tenantId: string;
  subjectId: string;
  label: string | null;
  /** How many times it matched in this batch. */
  count: number;
  first: Date;
  last: Date;
  /** The packet (or event) that matched last, as the match shows it. */
  packet: unknown;
  /** The packet that matched first, when folding found an earlier one than `packet`. */
  firstPacket?: unknown;
  reason: MatchReason;
  /** A Maintenance rule's window was open over the subject: the match is recorded, its actions suppressed. */
  inMaintenance: boolean;
}

/** A candidate's packet in its batch: its position there (from 1), its entity and its timestamp as sent. */
export interface PacketKey {
  position: number;
  entityId: string;
  timestamp: string;
}

/** Folds candidates of one rule and subject into one (count summed, first/last widened, newest packet kept). */
export function foldCandidates(candidates: readonly MatchCandidate[]): MatchCandidate[] {
  const folded = new Map<string, MatchCandidate>();
  for (const candidate of candidates) {
    const key = `${candidate.rule.ruleId}\u0000${candidate.subjectId}`;
    const known = folded.get(key);
    if (!known) {
      folded.set(key, { ...candidate, firstPacket: candidate.firstPacket ?? candidate.packet });
      continue;
    }
    known.count += candidate.count;
    if (candidate.first < known.first) {
      known.first = candidate.first;
      known.firstPacket = candidate.firstPacket ?? candidate.packet;
    }
    if (candidate.last >= known.last) {
      known.last = candidate.last;
      known.packet = candidate.packet;
      known.reason = candidate.reason;
      known.label = candidate.label ?? known.label;
      known.inMaintenance = candidate.inMaintenance;
    }
  }
  return [...folded.values()];
}

/** The action jobs of a match's phase, keyed by match, phase (and occurrence) and position: enqueued once. */
export function actionJobs(
  phase: 'match' | 'expiration',
  match: {
    rule_match_id: string;
    tenant_id: string;
    subject_id: string;
    label: string | null;
    in_maintenance: boolean;
  },
  rule: { ruleId: string; name: string },
  actions: readonly RuleAction[],
  occurrence = '',
) {
  return actions.map((action, index) => ({
    key: `${match.rule_match_id}:${phase}${occurrence}:${index}`,
    payload: {
      ruleMatchId: match.rule_match_id,
      ruleId: rule.ruleId,
      ruleName: rule.name,
      tenantId: match.tenant_id,
      subjectId: match.subject_id,
      label: match.label,
      phase,
      actionDefinitionId: action.ActionDefinitionId,
      parameters: action.Parameters,
      suppressed: match.in_maintenance,
    } satisfies RuleActionJob,
  }));
}

/**
 * The match actions of a match that left maintenance with its condition holding: run as a new
 * occurrence would run them, once per release (keyed by its time, apart from the suppressed ones
 * of its opening and from an earlier release of the same match).
 */
export function afterMaintenanceJobs(
  match: { rule_match_id: string; tenant_id: string; subject_id: string; label: string | null },
  rule: Pick<CompiledRule, 'ruleId' | 'name' | 'matchActions'>,
  released: Date,
) {
  return actionJobs(
    'match',
    { ...match, in_maintenance: false },
    rule,
    rule.matchActions,
    `:after-maintenance:${released.getTime()}`,
  );
}

/** A match as a sweep reads it to enqueue its action jobs: whose it is, its subject, whether in maintenance. */
export interface MatchOfRule {
  rule_match_id: string;
  rule_id: string;
  tenant_id: string;
  subject_id: string;
  label: string | null;
  in_maintenance: boolean;
}

interface ClosedMatch extends MatchOfRule {
  name: string;
  expiration_actions: RuleAction[];
}

/**
 * Closes due matches and enqueues their expiration actions, in one transaction: the match is
 * marked processed and its actions' jobs exist, or neither. Due rows are claimed with SKIP LOCKED,
 * so several workers share the work and none closes a match another is closing. `pairs` limits it
 * to some rules' subjects (a new match of a subject first closes its expired one).
 */
async function closeDue(
  trx: Tx,
  now: Date,
  limit: number,
  pairs?: readonly { ruleId: string; subjectId: string }[],
): Promise<number> {
  const only = pairs
    ? sql`AND (rule_id, subject_id) IN (SELECT r, s FROM unnest(${pairs.map((pair) => pair.ruleId)}::uuid[], ${pairs.map((pair) => pair.subjectId)}::text[]) AS p(r, s))`
    : sql``;
  // Raw SQL: an update that claims its rows with SKIP LOCKED and joins the rule for its actions;
  // the engine closes matches of every tenant (it answers nobody), so it is unscoped by design.
  // A pending match that ran out never opened: it goes, with nothing to run.
  await sql`
    DELETE FROM rule_match WHERE rule_match_id IN (
      SELECT rule_match_id FROM rule_match
      WHERE NOT completion_processed AND pending AND ${hasRunOutSql(sql`expires`, now)} ${only}
      ORDER BY expires LIMIT ${limit} FOR UPDATE SKIP LOCKED)`.execute(trx);
  const { rows } = await sql<ClosedMatch>`
    UPDATE rule_match m SET completion_processed = true, modified = now(),
      outcome = CASE WHEN m.recovers THEN 'noData' ELSE 'expired' END
    FROM rule r
    WHERE m.rule_match_id IN (
      SELECT rule_match_id FROM rule_match
      WHERE NOT completion_processed AND NOT pending AND ${hasRunOutSql(sql`expires`, now)} ${only}
      ORDER BY expires LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      AND r.rule_id = m.rule_id
    RETURNING m.rule_match_id, m.rule_id, m.tenant_id, m.subject_id, m.label, m.in_maintenance, r.name, r.expiration_actions`.execute(
    trx,
  );
  const jobs = rows.flatMap((row) =>
    actionJobs('expiration', row, { ruleId: row.rule_id, name: row.name }, row.expiration_actions),
  );
  await enqueueMany(trx, ruleActionTask, jobs);
  return rows.length;
}

/** Closes every match due by `now`, a batch at a time; returns how many it closed. */
export async function expireMatches(db: Db, now = new Date(), batchSize = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const closed = await db.transaction().execute((trx) => closeDue(trx, now, batchSize));
    total += closed;
    if (closed < batchSize) return total;
  }
}

interface WrittenMatch extends MatchOfRule {
  opened: boolean;
}

/**
 * Opens or raises the match of each row of `source` (columns r rule, t tenant, s subject, l label,
 * n count, f first, a last, e expires, p packet, w reason, m in maintenance, fp first packet,
 * pd pending, rc recovers), in (rule, subject)
 * order so that concurrent writers lock in one order: a match opens, is raised, or has run out as
 * match-semantics.ts decides (its SQL forms). A raise pushes `expires` out for the rules of `rules`
 * that slide (named in the statement, so that no row reads the rule table). A subject whose open
 * match ran out unclosed is left alone and missing from what it returns.
 */
function upsertFrom(source: RawBuilder<unknown>, now: Date, rules: readonly CompiledRule[]): RawBuilder<WrittenMatch> {
  const sliding = [...new Set(rules.filter((rule) => rule.sliding).map((rule) => rule.ruleId))];
  return sql<WrittenMatch>`
    INSERT INTO rule_match AS m (rule_id, tenant_id, subject_id, label, match_count, first_match, last_match, expires, rule_packet, reason, in_maintenance, first_packet, pending, recovers)
    SELECT * FROM (${source}) AS source ORDER BY 1, 3
    ON CONFLICT (rule_id, subject_id) WHERE NOT completion_processed DO UPDATE SET
      match_count = m.match_count + excluded.match_count,
      last_match = greatest(m.last_match, excluded.last_match),
      rule_packet = CASE WHEN excluded.last_match >= m.last_match THEN excluded.rule_packet ELSE m.rule_packet END,
      reason = CASE WHEN excluded.last_match >= m.last_match THEN excluded.reason ELSE m.reason END,
      label = coalesce(excluded.label, m.label),
      expires = ${raisedExpiresSql(sql`m.expires`, sql`excluded.expires`, sql`m.rule_id = ANY(${sliding}::uuid[])`)},
      modified = now()
    WHERE ${isOpenSql(sql`m.expires`, now)}
    RETURNING m.rule_match_id, m.rule_id, m.tenant_id, m.subject_id, m.label, m.in_maintenance, (xmax = 0 AND NOT m.pending) AS opened`;
}

/**
 * One statement: opens or raises the match of each candidate. A subject whose open match already
 * ran out (expires passed, not yet closed) is left alone and missing from the answer.
 */
async function upsertMatches(trx: Tx, folded: readonly MatchCandidate[], now: Date): Promise<WrittenMatch[]> {
  const input = JSON.stringify(
    folded.map((candidate) => ({
      r: candidate.rule.ruleId,
      t: candidate.tenantId,
      s: candidate.subjectId,
      l: candidate.label,
      n: candidate.count,
      f: candidate.first.toISOString(),
      a: candidate.last.toISOString(),
      e: new Date(expiresAfter(now.getTime(), candidate.rule)).toISOString(),
      p: candidate.packet,
      w: candidate.reason,
      m: candidate.inMaintenance,
      fp: candidate.firstPacket ?? candidate.packet,
      pd: candidate.rule.pendingSeconds > 0,
      rc: candidate.rule.recovers,
    })),
  );
  // Raw SQL: an upsert from a record set on the partial unique index, telling opened from raised
  // rows; every row carries the tenant of the subject it matched, which evaluation took from the data.
  const { rows } = await sql<WrittenMatch>`
    ${upsertFrom(
      sql`SELECT r, t, s, l, n, f, a, e, p, w, m, fp, pd, rc FROM jsonb_to_recordset(${input}::jsonb)
      AS x(r uuid, t uuid, s text, l text, n integer, f timestamptz, a timestamptz, e timestamptz, p jsonb, w jsonb, m boolean, fp jsonb, pd boolean, rc boolean)`,
      now,
      folded.map((candidate) => candidate.rule),
    )}`.execute(trx);
  return rows;
}

/**
 * Records matches in the caller's transaction: for each rule and subject, the open match is raised
 * (matchCount, lastMatch, the packet and the reason; `expires` pushed out when the rule slides) or,
 * when none is open, one is opened and its match actions are enqueued. The open match is claimed by
 * the partial unique index (rule, subject) among unprocessed matches: two instances matching the
 * same subject at once open it once (the second waits for the first and raises it), so its actions
 * are enqueued once. A subject whose match ran out but was not yet closed gets that one closed
 * (its expiration actions enqueued) before the new one opens.
 */
export async function recordMatches(
  trx: Tx,
  candidates: readonly MatchCandidate[],
  now = new Date(),
): Promise<{ opened: number; raised: number }> {
  if (candidates.length === 0) return { opened: 0, raised: 0 };
  const folded = foldCandidates(candidates);
  let written = await upsertMatches(trx, folded, now);
  if (written.length < folded.length) {
    // Subjects whose open match ran out and was not closed yet: close it (its expiration actions
    // enqueued), then open the new one. Rare: the expiry task closes due matches every few seconds.
    const seen = new Set(written.map((row) => `${row.rule_id} ${row.subject_id}`));
    const expired = folded.filter((candidate) => !seen.has(`${candidate.rule.ruleId} ${candidate.subjectId}`));
    await closeDue(
      trx,
      now,
      expired.length,
      expired.map((candidate) => ({ ruleId: candidate.rule.ruleId, subjectId: candidate.subjectId })),
    );
    written = [...written, ...(await upsertMatches(trx, expired, now))];
  }
  const rules = new Map(folded.map((candidate) => [candidate.rule.ruleId, candidate.rule]));
  const jobs = written
    .filter((row) => row.opened)
    .flatMap((row) => {
      const rule = rules.get(row.rule_id)!;
      return actionJobs('match', row, rule, rule.matchActions);
    });
  await enqueueMany(trx, ruleActionTask, jobs);
  const opened = written.filter((row) => row.opened).length;
  return { opened, raised: written.length - opened };
}

/** Stands for the id of a match the statement opens, in the payloads checked before it is sent. */
const DRAFT_MATCH_ID = '00000000-0000-4000-8000-000000000000';

/** The error with which a batch statement stops when a subject's match ran out unclosed (migration 0021). */
export const MATCH_RAN_OUT = 'CFS01';

export function isMatchRanOut(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === MATCH_RAN_OUT;
}

/**
 * Matches recorded in the statement that stores a packet batch (ingestion's one statement, no
 * transaction held open across round trips): common table expressions to follow the batch's
 * `input` (its packets, `n` their position from 1, `m` the message) and `stored` (the packets that
 * were new, `entity_id, timestamp`). Each candidate names its packet by position, and the match
 * shows that packet's message as the batch holds it (not sent again per rule that matched it);
 * those of packets that were not new are dropped, the rest folded per rule and subject (count,
 * first, and the newest one's packet and reason), opened or raised as `recordMatches` does, and
 * the match actions of those opened enqueued. The statement ends by stopping with `MATCH_RAN_OUT`
 * when a subject's match ran out unclosed: nothing of it is kept, and the batch is stored again by
 * the path that closes that match first.
 *
 * Use: `WITH input AS (…), latest AS (INSERT … RETURNING 1), stored AS (INSERT … RETURNING entity_id, timestamp), ${ctes} SELECT … FROM ${tail}`.
 */
export function matchesInStatement(
  candidates: readonly { packetKey: PacketKey; candidate: MatchCandidate }[],
  now = new Date(),
): { ctes: RawBuilder<unknown>; check: RawBuilder<boolean> } {
  const input = JSON.stringify(
    candidates.map(({ packetKey, candidate }) => ({
      k: packetKey.position,
      ke: packetKey.entityId,
      kt: packetKey.timestamp,
      r: candidate.rule.ruleId,
      t: candidate.tenantId,
      s: candidate.subjectId,
      l: candidate.label,
      a: candidate.last.toISOString(),
      e: new Date(expiresAfter(now.getTime(), candidate.rule)).toISOString(),
      w: candidate.reason,
      m: candidate.inMaintenance,
      pd: candidate.rule.pendingSeconds > 0,
      rc: candidate.rule.recovers,
      j: candidate.rule.matchActions.map((action) => ({
        ruleId: candidate.rule.ruleId,
        ruleName: candidate.rule.name,
        phase: 'match',
        actionDefinitionId: action.ActionDefinitionId,
        parameters: action.Parameters,
      })),
    })),
  );
  // The opened matches' jobs, keyed and completed with the ids the upsert gives them.
  const jobs = enqueueInStatement(
    ruleActionTask,
    sql`SELECT u.rule_match_id || ':match:' || (x.i - 1),
        x.action || jsonb_build_object('ruleMatchId', u.rule_match_id, 'tenantId', u.tenant_id, 'subjectId', u.subject_id, 'label', u.label, 'suppressed', u.in_maintenance)
      FROM upserted u JOIN folded f ON f.r = u.rule_id AND f.s = u.subject_id
      CROSS JOIN LATERAL jsonb_array_elements(f.j) WITH ORDINALITY AS x(action, i)
      WHERE u.opened`,
    candidates.flatMap(({ candidate }) =>
      candidate.rule.matchActions.map((action): RuleActionJob => ({
        ruleMatchId: DRAFT_MATCH_ID,
        ruleId: candidate.rule.ruleId,
        ruleName: candidate.rule.name,
        phase: 'match',
        actionDefinitionId: action.ActionDefinitionId,
        parameters: action.Parameters,
        tenantId: candidate.tenantId,
        subjectId: candidate.subjectId,
        label: candidate.label,
        suppressed: candidate.inMaintenance,
      })),
    ),
  );
  // Raw SQL: upserts from a record set on the partial unique index, and the opened matches' jobs
  // built from the same rows; every row carries the tenant of the subject it matched.
  const ctes = sql`
    candidate AS (
      SELECT c.*, jsonb_build_object('entityId', c.ke, 'timestamp', c.kt, 'message', i.m) AS p
      FROM jsonb_to_recordset(${input}::jsonb)
        AS c(k bigint, ke text, kt text, r uuid, t uuid, s text, l text, a timestamptz, e timestamptz, w jsonb, m boolean, pd boolean, rc boolean, j jsonb)
      JOIN input i ON i.n = c.k
      WHERE EXISTS (SELECT 1 FROM stored WHERE stored.entity_id = i.e AND stored.timestamp = i.t)
        -- The latest rows are written before the matches (reading latest runs it first), the order
        -- in which the batch's transaction path takes them: two batches of one entity wait for each
        -- other instead of deadlocking.
        AND (SELECT count(*) FROM latest) >= 0
    ), folded AS (
      SELECT DISTINCT ON (r, s) r, t, s, l, a, e, p, w, m, pd, rc, j,
        count(*) OVER (PARTITION BY r, s) AS n, min(a) OVER (PARTITION BY r, s) AS f,
        first_value(p) OVER (PARTITION BY r, s ORDER BY a, k) AS fp
      FROM candidate ORDER BY r, s, a DESC
    ), upserted AS (
      ${upsertFrom(
        sql`SELECT r, t, s, l, n, f, a, e, p, w, m, fp, pd, rc FROM folded`,
        now,
        candidates.map(({ candidate }) => candidate.rule),
      )}
    ), ${jobs.ctes}`;
  const check = sql<boolean>`(${jobs.read} AND ((SELECT count(*) FROM folded) = (SELECT count(*) FROM upserted) OR rule_match_ran_out()))`;
  return { ctes, check };
}
