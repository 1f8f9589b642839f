import { sql } from 'kysely';
import { z } from 'zod';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { defineTask } from '../jobs/task.js';
import { enqueueMany } from '../jobs/queue.js';
import { holdsFor, type CompiledRule, type PacketSubject } from './compile.js';
import { inMaintenance } from './evaluate-batch.js';
import { groupKeySql } from './groups.js';
import { afterMaintenanceJobs } from './matches.js';
import { ruleActionTask } from './actions.js';
import { rulesFor } from './rule-cache.js';
import { holdUnderStartedSilences, isSilencedSql, silenced } from './silences.js';

/** How often open matches are checked for a silence that started, and those in maintenance for a window that ended. */
const MAINTENANCE_END_EVERY_MS = 5000;
/** Matches in maintenance looked at per sweep, the oldest first. */
const SWEEP_MAX = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Maintained {
  rule_match_id: string;
  rule_id: string;
  tenant_id: string;
  subject_id: string;
  label?: string | null;
}

/**
 * The subjects of matches as rules read them now, by match id: each entity's latest packet and its
 * device (an entity that has sent none: an empty message of now, without `ageSeconds`).
 */
export async function subjectsNow(
  db: Db,
  matches: readonly Maintained[],
  now: Date,
): Promise<Map<string, PacketSubject>> {
  const entityIds = [...new Set(matches.map((match) => match.subject_id).filter((id) => UUID.test(id)))];
  // The engine looks at matches of every tenant (it answers nobody): unscoped by design.
  const all = scoped(db, ALL_TENANTS);
  const latest = entityIds.length
    ? await all
        .selectFrom('packet_latest')
        .select(['entity_id', 'timestamp', 'message'])
        .where('entity_id', 'in', entityIds)
        .execute()
    : [];
  const devices = entityIds.length
    ? await all
        .selectFrom('device')
        .select(['device_id as entity_id', 'device_id'])
        .where('device_id', 'in', entityIds)
        .unionAll(
          all
            .selectFrom('device_operation')
            .select(['device_operation_id as entity_id', 'device_id'])
            .where('device_operation_id', 'in', entityIds),
        )
        .execute()
    : [];
  const packets = new Map(latest.map((row) => [row.entity_id, row]));
  const deviceOf = new Map(devices.map((row) => [row.entity_id, row.device_id]));
  const subjects = new Map<string, PacketSubject>();
  for (const match of matches) {
    const packet = packets.get(match.subject_id);
    subjects.set(match.rule_match_id, {
      kind: 'packet',
      tenantId: match.tenant_id,
      entityId: match.subject_id,
      deviceId: deviceOf.get(match.subject_id) ?? null,
      timestamp: packet?.timestamp ?? now,
      message: (packet?.message as Record<string, unknown> | undefined) ?? {},
      ageSeconds: packet ? Math.floor((now.getTime() - packet.timestamp.getTime()) / 1000) : undefined,
    });
  }
  return subjects;
}

/**
 * A problem that started in a maintenance window is not silenced for ever (spec 002 §3 Maintenance
 * rule, RuleMatch.inMaintenance): a match opened in maintenance stays open while its condition
 * holds (a sliding lifetime keeps it open indefinitely), and its actions were suppressed. When no
 * maintenance window is open over its subject any more — the window's time ran out, its rule was
 * disabled or removed, its change request moved or canceled — an open match whose condition still
 * holds leaves maintenance and runs its match actions once, as a new occurrence would; its
 * expiration actions then run too. For an Ingestion rule the condition is checked against the
 * entity's latest packet; for the window rules (History, Aggregation, Correlation) that the match
 * is still open is the engine's word that it holds.
 *
 * Each match leaves maintenance in a statement that claims it (`in_maintenance` is still true) and
 * enqueues its actions in the same transaction, keyed by the match: two workers sweeping at once,
 * or a sweep run again, release it and run its actions once.
 */
export async function releaseEndedMaintenance(db: Db, now = new Date()): Promise<number> {
  const maintained = await scoped(db, ALL_TENANTS)
    .selectFrom('rule_match')
    .select(['rule_match_id', 'rule_id', 'tenant_id', 'subject_id', 'label'])
    .where('in_maintenance', '=', true)
    .where('completion_processed', '=', false)
    .where('pending', '=', false)
    .where('expires', '>', now)
    .orderBy('first_match')
    .limit(SWEEP_MAX)
    .execute();
  if (maintained.length === 0) return 0;
  const subjects = await subjectsNow(db, maintained, now);
  const released: { match: Maintained; rule: CompiledRule }[] = [];
  for (const match of maintained) {
    const rules = await rulesFor(db, match.tenant_id);
    const subject = subjects.get(match.rule_match_id)!;
    if (inMaintenance(rules.maintenance, subject, now)) continue;
    const rule = rules.all.find((candidate) => candidate.ruleId === match.rule_id);
    // Still under a silence: its actions wait for its end too.
    if (silenced(rules.silences, match.rule_id, { subjectId: match.subject_id, label: match.label }, now)) continue;
    // A disabled or removed rule acts no more; its open match runs out as it is.
    if (!rule) continue;
    if (rule.mode === 'packet' && !holdsFor(rule, subject)) continue;
    released.push({ match, rule });
  }
  if (released.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    // Raw SQL: claims the matches still in maintenance (another worker may have released some).
    // Under a policy that groups, a released match is held for its group as a new one is (its
    // notification goes with the group's, after the wait); otherwise its notification goes now.
    const groupBy = sql`(SELECT p.group_by FROM notification_policy p WHERE p.tenant_id = m.tenant_id)`;
    const { rows } = await sql<{
      rule_match_id: string;
      rule_id: string;
      tenant_id: string;
      subject_id: string;
      label: string | null;
    }>`
      UPDATE rule_match m SET in_maintenance = false, modified = now(),
        notified = CASE WHEN ${groupBy} IS NULL THEN ${now}::timestamptz END,
        grouped = CASE WHEN ${groupBy} IS NULL THEN m.grouped ELSE ${now}::timestamptz END,
        group_key = CASE WHEN ${groupBy} IS NULL THEN m.group_key ELSE ${groupKeySql(groupBy)} END
      WHERE m.rule_match_id = ANY(${released.map(({ match }) => match.rule_match_id)}::uuid[]) AND m.in_maintenance AND NOT m.completion_processed
        -- The hold sweep's own check (holdUnderStartedSilences): what one holds the other never releases.
        AND NOT ${isSilencedSql((column) => sql.ref(`m.${column}`), now)}
      RETURNING m.rule_match_id, m.rule_id, m.tenant_id, m.subject_id, m.label`.execute(trx);
    const rules = new Map(released.map(({ rule }) => [rule.ruleId, rule]));
    await enqueueMany(
      trx,
      ruleActionTask,
      rows.flatMap((row) => afterMaintenanceJobs(row, rules.get(row.rule_id)!, now)),
    );
    return rows.length;
  });
}

export const maintenanceEndTask = defineTask({
  name: 'rules.maintenance-end',
  payload: z.object({}),
  every: MAINTENANCE_END_EVERY_MS,
  perform: async (_payload, { db }) => {
    await holdUnderStartedSilences(db);
    await releaseEndedMaintenance(db);
  },
});
