import { sql } from 'kysely';
import { z } from 'zod';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { defineTask } from '../jobs/task.js';
import {
  holdsFor,
  holdsOverHistory,
  joinConditions,
  labelOf,
  packetField,
  reasonFor,
  type CompiledRule,
  type PacketSubject,
} from './compile.js';
import { silenced } from './silences.js';
import { recordMatches, type MatchCandidate } from './matches.js';
import { lifetimeStart, withinLifetime } from './match-semantics.js';
import { asNumber, isEmpty } from './operators.js';
import { rulesFor } from './rule-cache.js';

/** The packets an Aggregation rule folds per entity at most (the newest within its lifetime). */
export const AGGREGATION_WINDOW_MAX = 10_000;

/**
 * Aggregation: the rule's other conditions choose the packets (all of them when it has none), and
 * each aggregate condition folds the chosen packets' field within the lifetime — Count of packets
 * whose field is not empty, Average, Minimum, Maximum, Sum of its numbers — before its operator
 * compares the result. Only aggregate conditions join into the result.
 */
export function aggregateSubject(rule: CompiledRule, newestFirst: readonly PacketSubject[]): PacketSubject | undefined {
  const filters = rule.conditions.filter((condition) => !condition.aggregate);
  const chosen =
    filters.length === 0
      ? newestFirst
      : newestFirst.filter((subject) =>
          joinConditions(filters, (condition) => condition.test(condition.read(subject))),
        );
  const newest = chosen[0];
  if (!newest) return undefined;
  const aggregates = new Map<number, number | null>();
  for (const condition of rule.conditions) {
    if (!condition.aggregate) continue;
    const path = condition.condition.LeftOperandFieldName ?? 'Value';
    const values = chosen.map((subject) => packetField(subject.message, path));
    if (condition.aggregate === 'Count') {
      aggregates.set(condition.index, values.filter((value) => !isEmpty(value)).length);
      continue;
    }
    const numbers = values.flatMap((value) => asNumber(value) ?? []);
    if (numbers.length === 0) {
      aggregates.set(condition.index, null);
      continue;
    }
    const sum = numbers.reduce((total, value) => total + value, 0);
    const folded = {
      Average: sum / numbers.length,
      Minimum: Math.min(...numbers),
      Maximum: Math.max(...numbers),
      Sum: sum,
    }[condition.aggregate];
    aggregates.set(condition.index, folded);
  }
  return { ...newest, aggregates };
}

export function aggregateHolds(rule: CompiledRule, subject: PacketSubject): boolean {
  const aggregates = rule.conditions.filter((condition) => condition.aggregate);
  return joinConditions(aggregates, (condition) => condition.test(condition.read(subject)));
}

function candidateOf(rule: CompiledRule, subject: PacketSubject, inMaintenance: boolean): MatchCandidate {
  return {
    rule,
    tenantId: subject.tenantId,
    subjectId: subject.entityId,
    label: labelOf(subject),
    count: 1,
    first: subject.timestamp,
    last: subject.timestamp,
    packet: { entityId: subject.entityId, timestamp: subject.timestamp.toISOString(), message: subject.message },
    reason: reasonFor(rule, subject),
    inMaintenance,
  };
}

interface StoredPacket {
  entity_id: string;
  timestamp: Date;
  message: Record<string, unknown>;
  device_id: string | null;
}

/**
 * The statement of newestPackets: each entity read by the history's key (entity, timestamp) in the
 * days it names (the history is partitioned by day: only the partitions of the window's days are
 * read). Raw SQL: a lateral read per entity; scoped by the tenant in the statement itself.
 */
export function newestPacketsStatement(
  tenantId: string,
  entityIds: readonly string[],
  from: Date,
  to: Date,
  depth: number,
) {
  return sql<StoredPacket>`
    SELECT p.entity_id, p.timestamp, p.message,
      coalesce((SELECT d.device_id FROM device d WHERE d.device_id = e.id AND d.tenant_id = ${tenantId}),
               (SELECT o.device_id FROM device_operation o WHERE o.device_operation_id = e.id AND o.tenant_id = ${tenantId})) AS device_id
    FROM unnest(${entityIds}::uuid[]) AS e(id)
    CROSS JOIN LATERAL (
      SELECT entity_id, timestamp, message FROM packet
      WHERE entity_id = e.id AND tenant_id = ${tenantId} AND timestamp >= ${from} AND timestamp <= ${to}
      ORDER BY timestamp DESC LIMIT ${depth}) p
    ORDER BY p.entity_id, p.timestamp DESC`;
}

/** The newest packets of some entities within a window, up to `depth` each, newest first, in one statement. */
async function newestPackets(
  db: Db,
  tenantId: string,
  entityIds: readonly string[],
  from: Date,
  to: Date,
  depth: number,
): Promise<Map<string, PacketSubject[]>> {
  const { rows } = await newestPacketsStatement(tenantId, entityIds, from, to, depth).execute(db);
  const byEntity = new Map<string, PacketSubject[]>();
  for (const row of rows) {
    const list = byEntity.get(row.entity_id) ?? [];
    list.push({
      kind: 'packet',
      tenantId,
      entityId: row.entity_id,
      deviceId: row.device_id,
      timestamp: row.timestamp,
      message: row.message,
    });
    byEntity.set(row.entity_id, list);
  }
  return byEntity;
}

/**
 * Evaluates the window rules (History, Aggregation, Correlation, and Ingestion rules with
 * occurrence patterns) of a tenant over the entities that just reported, from their stored
 * packets up to `at`:
 *
 * - History: holdsOverHistory over each entity's newest packets (N of the last M per condition).
 * - Aggregation: aggregateSubject/aggregateHolds over each entity's packets within the lifetime.
 * - Correlation: each entity whose newest packet meets the conditions is remembered (when last);
 *   the tenant's correlation matches once at least N distinct entities (the largest N of the rule's
 *   occurrence patterns, at least 2) met them within the lifetime. Its subject is the tenant.
 */
export async function evaluateWindow(
  db: Db,
  tenantId: string,
  ruleIds: readonly string[],
  entityIds: readonly string[],
  at: Date,
): Promise<number> {
  // Checked after the packets' batch named its rules (`at`): a rule saved through another instance
  // just before them, which that batch's instance already applied, applies here too.
  const tenantRules = await rulesFor(db, tenantId, db, at.getTime());
  const wanted = new Set(ruleIds);
  const rules = tenantRules.window.filter((rule) => wanted.has(rule.ruleId));
  if (rules.length === 0 || entityIds.length === 0) return 0;
  const depth = Math.max(
    ...rules.map((rule) =>
      rule.mode === 'aggregate' ? AGGREGATION_WINDOW_MAX : rule.mode === 'history' ? rule.historyDepth : 1,
    ),
  );
  const from = new Date(Math.min(...rules.map((rule) => lifetimeStart(at.getTime(), rule))));
  const packets = await newestPackets(db, tenantId, entityIds, from, at, depth);
  const candidates: MatchCandidate[] = [];
  const members: { rule: CompiledRule; subject: PacketSubject }[] = [];
  // Held back by a maintenance window over the subject, or by a silence over the rule's match of it.
  const maintained = (rule: CompiledRule, subject: PacketSubject, subjectId = subject.entityId) =>
    tenantRules.maintenance.some((maintenance) => maintenance.inTime(at) && holdsFor(maintenance, subject)) ||
    silenced(tenantRules.silences, rule.ruleId, { subjectId, label: labelOf(subject) }, at);
  for (const rule of rules) {
    for (const newestFirst of packets.values()) {
      const recent = newestFirst.filter((subject) => withinLifetime(subject.timestamp.getTime(), at.getTime(), rule));
      const newest = recent[0];
      if (!newest || !rule.inTime(newest.timestamp)) continue;
      if (rule.mode === 'history' && holdsOverHistory(rule, recent))
        candidates.push(candidateOf(rule, newest, maintained(rule, newest)));
      if (rule.mode === 'aggregate') {
        const folded = aggregateSubject(rule, recent);
        if (folded && aggregateHolds(rule, folded))
          candidates.push(candidateOf(rule, folded, maintained(rule, folded)));
      }
      if (rule.mode === 'correlation' && holdsFor(rule, newest)) members.push({ rule, subject: newest });
    }
  }
  return db.transaction().execute(async (trx) => {
    for (const rule of rules.filter((candidate) => candidate.mode === 'correlation')) {
      const mine = members.filter((member) => member.rule === rule);
      if (mine.length === 0) continue;
      const tx = scoped(trx, ALL_TENANTS);
      await tx
        .insertInto(
          'rule_correlation_member',
          mine.map(({ subject }) => ({
            rule_id: rule.ruleId,
            tenant_id: tenantId,
            entity_id: subject.entityId,
            last_seen: subject.timestamp,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['rule_id', 'tenant_id', 'entity_id'])
            .doUpdateSet({ last_seen: sql`greatest(rule_correlation_member.last_seen, excluded.last_seen)` }),
        )
        .execute();
      const seen = await tx
        .selectFrom('rule_correlation_member')
        .select(['entity_id', 'last_seen'])
        .where('rule_id', '=', rule.ruleId)
        .where('tenant_id', '=', tenantId)
        .where('last_seen', '>=', new Date(lifetimeStart(at.getTime(), rule)))
        .orderBy('last_seen', 'desc')
        .limit(1000)
        .execute();
      if (seen.length < rule.occurrenceCount) continue;
      const newest = mine.reduce((latest, member) =>
        member.subject.timestamp > latest.subject.timestamp ? member : latest,
      ).subject;
      const reason = reasonFor(rule, newest);
      candidates.push({
        rule,
        tenantId,
        subjectId: tenantId,
        label: `${seen.length} entities`,
        count: mine.length,
        first: newest.timestamp,
        last: newest.timestamp,
        packet: {
          entities: seen
            .slice(0, 20)
            .map((row) => ({ entityId: row.entity_id, lastSeen: row.last_seen.toISOString() })),
        },
        reason,
        inMaintenance: maintained(rule, newest, tenantId),
      });
    }
    await recordMatches(trx, candidates, at);
    return candidates.length;
  });
}

export const windowTask = defineTask({
  name: 'rules.window',
  payload: z.object({
    tenantId: z.uuid(),
    ruleIds: z.array(z.uuid()),
    entityIds: z.array(z.uuid()),
    at: z.iso.datetime(),
  }),
  attempts: 5,
  perform: async ({ tenantId, ruleIds, entityIds, at }, { db }) => {
    await evaluateWindow(db, tenantId, ruleIds, entityIds, new Date(at));
  },
});
