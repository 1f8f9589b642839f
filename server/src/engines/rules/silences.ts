import { sql, type RawBuilder } from 'kysely';
import { intervalSeconds } from '@cfs/contracts/device-operations';
import { RULE_MATCH_MESSAGES } from '@cfs/contracts/rule-matches';
import { SILENCE_MESSAGES, type SilenceValues } from '@cfs/contracts/silences';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import { BadRequestError, HttpError } from '../../http/errors.js';

/**
 * Silences and acknowledgements of matches (docs/features/rules.md "Acknowledge and silence"),
 * written here, where `rule_match` and `rule_silence` are owned; the rule matches and silences
 * areas call these in their transactions.
 *
 * A silence covers a subject of its tenant from `starts` to `ends` (exclusive): of its rule (or
 * every rule), of its entity (or, with a label, every entity of that label; or every entity).
 * A match that opens under a silence is recorded as in maintenance (its actions suppressed and
 * recorded as such), and the maintenance-end sweep runs its match actions once the silence is
 * over if its condition still holds. A silence that starts at once also puts the open matches it
 * covers in that state, so that their closing does not notify while it lasts.
 */
export interface CompiledSilence {
  ruleId: string | null;
  subjectId: string | null;
  /** Lower case. */
  label: string | null;
  starts: number;
  ends: number;
}

/** Whether a silence covers the rule's match of this subject at `at`. */
export function silenced(
  silences: readonly CompiledSilence[],
  ruleId: string,
  subject: { subjectId: string; label: string | null },
  at: Date,
): boolean {
  const time = at.getTime();
  const label = subject.label?.toLowerCase() ?? null;
  return silences.some(
    (silence) =>
      silence.starts <= time &&
      time < silence.ends &&
      (silence.ruleId === null || silence.ruleId === ruleId) &&
      (silence.subjectId === null || silence.subjectId === subject.subjectId) &&
      (silence.label === null || silence.label === label),
  );
}

/** A tenant's silences not over yet; read by the engine with its rules (rule-cache.ts), for any tenant: unscoped by design. */
export async function loadSilences(db: Db | Tx, tenantId: string): Promise<CompiledSilence[]> {
  const rows = await scoped(db, ALL_TENANTS)
    .selectFrom('rule_silence')
    .select(['rule_id', 'subject_id', 'label', 'starts', 'ends'])
    .where('tenant_id', '=', tenantId)
    .where('ends', '>', sql<Date>`now()`)
    .orderBy('ends')
    .limit(10_000)
    .execute();
  return rows.map((row) => ({
    ruleId: row.rule_id,
    subjectId: row.subject_id,
    label: row.label?.toLowerCase() ?? null,
    starts: row.starts.getTime(),
    ends: row.ends.getTime(),
  }));
}

/**
 * The SQL form of `silenced`: silence `s` covers the row of `rule_match` named by `match` at `at`
 * (its tenant, its rule or every rule, its subject or its label or every subject, in its time).
 */
function coversSql(match: (column: string) => RawBuilder<unknown>, at: unknown): RawBuilder<boolean> {
  return sql<boolean>`s.tenant_id = ${match('tenant_id')} AND s.starts <= ${at} AND s.ends > ${at}
      AND (s.rule_id IS NULL OR s.rule_id = ${match('rule_id')})
      AND (s.subject_id IS NULL OR s.subject_id = ${match('subject_id')})
      AND (s.label IS NULL OR lower(s.label) = lower(${match('label')}))`;
}

/** Whether a silence covers the row of `rule_match` named by `match` at `at`. */
export function isSilencedSql(match: (column: string) => RawBuilder<unknown>, at: unknown): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM rule_silence s WHERE ${coversSql(match, at)})`;
}

/**
 * A silence made ahead holds the open matches it covers once it starts, as one made from now does
 * when it is made (`holdCoveredMatches`): they notify no more and their closing actions wait for
 * its end. The maintenance sweep runs this every few seconds, reading the silences in force (a
 * few) and the open matches of their tenants not held yet.
 */
export async function holdUnderStartedSilences(db: Db, now = new Date()): Promise<number> {
  // Raw SQL: the covered matches claimed in (rule, subject) order, as ingestion locks them, and
  // those a writer holds skipped until the next sweep; the engine holds matches of every tenant
  // (it answers nobody), so it is unscoped by design.
  const c = (column: string) => sql.ref(`c.${column}`);
  const result = await sql`
    UPDATE rule_match m SET in_maintenance = true, modified = now()
    WHERE m.rule_match_id IN (
      SELECT c.rule_match_id FROM rule_match c JOIN rule_silence s ON ${coversSql(c, now)}
      WHERE NOT c.completion_processed AND NOT c.pending AND NOT c.in_maintenance AND c.expires > ${now}
      ORDER BY c.rule_id, c.subject_id
      FOR UPDATE OF c SKIP LOCKED)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The latest end of the silences covering an open row of `rule_match` now (the list's
 * `silencedUntil`); a closed match is silenced no more, whatever covers its subject.
 */
export function silencedUntilSql(match: (column: string) => RawBuilder<unknown>) {
  return sql<Date | null>`CASE WHEN NOT ${match('completion_processed')}
    THEN (SELECT max(s.ends) FROM rule_silence s WHERE ${coversSql(match, sql`now()`)}) END`;
}

/** The open matches of `ids` the caller may see, locked; 400 when one is missing or closed. */
async function openMatches(tx: ScopedDb<Tx>, ids: readonly string[], now: Date) {
  const rows = await tx
    .selectFrom('rule_match')
    .select(['rule_match_id', 'tenant_id', 'rule_id', 'subject_id', 'completion_processed', 'expires'])
    .where('rule_match_id', 'in', [...new Set(ids)])
    .orderBy('rule_match_id')
    .forUpdate()
    .execute();
  if (rows.length !== new Set(ids).size) throw new HttpError(404, RULE_MATCH_MESSAGES.notFound);
  if (rows.some((row) => row.completion_processed || row.expires <= now))
    throw new BadRequestError(RULE_MATCH_MESSAGES.notOpen, { ruleMatchIds: [RULE_MATCH_MESSAGES.notOpen] });
  return rows;
}

/** Someone takes the open matches on: when, who and their note. A match acknowledged again keeps the latest. */
export async function acknowledgeMatches(
  tx: ScopedDb<Tx>,
  ids: readonly string[],
  by: string,
  note: string | null,
  now = new Date(),
): Promise<number> {
  const rows = await openMatches(tx, ids, now);
  await tx
    .updateTable('rule_match')
    .set({ acknowledged: now, acknowledged_by: by, acknowledgement: note, modified: now })
    .where(
      'rule_match_id',
      'in',
      rows.map((row) => row.rule_match_id),
    )
    .execute();
  return rows.length;
}

/** Open matches the silence covers now are put in maintenance: their closing actions wait for its end. */
async function holdCoveredMatches(tx: ScopedDb<Tx>, silence: { rule_silence_id: string }, now: Date): Promise<void> {
  const m = (column: string) => sql.ref(`rule_match.${column}`);
  await tx
    .updateTable('rule_match')
    .set({ in_maintenance: true, modified: now })
    .where('completion_processed', '=', false)
    .where('pending', '=', false)
    .where('expires', '>', now)
    .where(
      sql<boolean>`EXISTS (SELECT 1 FROM rule_silence s WHERE s.rule_silence_id = ${silence.rule_silence_id} AND ${coversSql(m, now)})`,
    )
    .execute();
}

/** A silence, made ahead of time (or from now). The caller has checked the tenant and the rule. */
export async function createSilence(tx: ScopedDb<Tx>, values: SilenceValues, by: string, now = new Date()) {
  const row = await tx
    .insertInto('rule_silence', {
      tenant_id: values.tenantId,
      rule_id: values.ruleId,
      subject_id: values.subjectId,
      label: values.label,
      starts: values.starts,
      ends: values.ends,
      note: values.note,
      created_by: by,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await holdCoveredMatches(tx, row, now);
  return row;
}

/** Each match's rule and subject silenced from now for `duration` (HH:mm:ss). */
export async function silenceMatches(
  tx: ScopedDb<Tx>,
  ids: readonly string[],
  duration: string,
  note: string | null,
  by: string,
  now = new Date(),
): Promise<number> {
  const rows = await openMatches(tx, ids, now);
  const ends = new Date(now.getTime() + (intervalSeconds(duration) ?? 0) * 1000);
  for (const row of rows)
    await createSilence(
      tx,
      {
        tenantId: row.tenant_id,
        ruleId: row.rule_id,
        subjectId: row.subject_id,
        label: null,
        starts: now,
        ends,
        note,
      },
      by,
      now,
    );
  return rows.length;
}

/** Ends a silence now (one that has not started goes); 404 outside the caller's tenants. */
export async function endSilence(tx: ScopedDb<Tx>, ruleSilenceId: string, now = new Date()) {
  const row = await tx
    .selectFrom('rule_silence')
    .selectAll()
    .where('rule_silence_id', '=', ruleSilenceId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'The silence does not exist.');
  if (row.starts >= now) await tx.deleteFrom('rule_silence').where('rule_silence_id', '=', ruleSilenceId).execute();
  else if (row.ends > now)
    await tx.updateTable('rule_silence').set({ ends: now }).where('rule_silence_id', '=', ruleSilenceId).execute();
  // One that had ended already is left as it was: asked again, nothing changes.
  return { ...row, ends: row.ends > now ? now : row.ends, changed: row.ends > now, message: SILENCE_MESSAGES.ended };
}
