import { z } from 'zod';
import { LEFT_OPERANDS, OPERATORS } from '@cfs/contracts/monitoring';
import { lifetimeSeconds } from '@cfs/contracts/rules';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { readEvents, WORK_UNIT_EVENT_CHANNEL } from '../events/cursor.js';
import { defineTask, type TaskDefinition } from '../jobs/task.js';
import { ruleActionTask } from './actions.js';
import { compileRule, holdsFor, labelOf, reasonFor, type CompiledRule, type WorkUnitSubject } from './compile.js';
import { expireMatches, recordMatches, type MatchCandidate } from './matches.js';
import { loadRuleRows, rulesFor } from './rule-cache.js';
import { windowTask } from './window.js';
import { maintenanceEndTask } from './maintenance-end.js';
import { sweepRecovery } from './recovery.js';
import { repeatTask } from './repeat.js';
import { groupTask } from './groups.js';
import { silenced } from './silences.js';
import { metrics } from '../../observability/metrics.js';

/**
 * How often due matches are closed (an expiration action runs within this time of `expires`), and
 * matches that close on recovery are judged against their subjects' latest packets.
 */
export const EXPIRY_EVERY_MS = 5000;
export const WORK_UNIT_EVENTS_EVERY_MS = 5000;
export const SILENCE_EVERY_MS = 60_000;
/** Entities a silence sweep looks at per rule, the quietest first. */
export const SILENCE_SWEEP_MAX = 5000;

export const expireMatchesTask = defineTask({
  name: 'rules.expire',
  payload: z.object({}),
  every: EXPIRY_EVERY_MS,
  perform: async (_payload, { db }) => {
    await sweepRecovery(db);
    await expireMatches(db);
  },
});

/**
 * WorkUnit rules: the work unit events (OnNew, OnChange, state changes…) read once each through the
 * engine's own cursor, each evaluated against the unit as it stands; the subject is the unit.
 * The cursor moves in the same transaction as the matches it led to.
 */
export async function evaluateWorkUnitEvents(db: Db, batchSize = 200): Promise<number> {
  let total = 0;
  for (let round = 0; round < 20; round += 1) {
    const read = await readEvents(db, 'rules', batchSize, async (events, trx) => {
      const ids = [...new Set(events.map((event) => event.work_unit_id))];
      const units = await scoped(trx, ALL_TENANTS)
        .selectFrom('work_unit')
        .select(['work_unit_id', 'tenant_id', 'work_unit_type_id', 'severity_id', 'state_id', 'title'])
        .where('work_unit_id', 'in', ids)
        .execute();
      const byId = new Map(units.map((unit) => [unit.work_unit_id, unit]));
      const candidates: MatchCandidate[] = [];
      for (const event of events) {
        const unit = byId.get(event.work_unit_id);
        if (!unit) continue;
        // Checked after the event was recorded: a rule saved before it applies to it.
        const rules = (await rulesFor(db, unit.tenant_id, trx, new Date(event.created).getTime())).workUnit;
        if (rules.length === 0) continue;
        const subject: WorkUnitSubject = {
          kind: 'workUnit',
          tenantId: unit.tenant_id,
          workUnitId: unit.work_unit_id,
          eventTypeId: event.event_type_id,
          workUnitTypeId: unit.work_unit_type_id,
          severityId: unit.severity_id,
          stateId: unit.state_id,
          title: unit.title,
          timestamp: event.created,
        };
        metrics.ruleEvaluations.inc({ kind: 'workUnit' }, rules.length);
        for (const rule of rules) {
          if (!rule.inTime(event.created) || !holdsFor(rule, subject)) continue;
          candidates.push({
            rule,
            tenantId: unit.tenant_id,
            subjectId: String(unit.work_unit_id),
            label: labelOf(subject),
            count: 1,
            first: event.created,
            last: event.created,
            packet: {
              workUnitId: unit.work_unit_id,
              eventTypeId: event.event_type_id,
              fromStateId: event.from_state_id,
              toStateId: event.to_state_id,
            },
            reason: reasonFor(rule, subject),
            inMaintenance: false,
          });
        }
      }
      await recordMatches(trx, candidates);
      metrics.ruleMatches.inc({ kind: 'workUnit' }, candidates.length);
    });
    total += read;
    if (read < batchSize) break;
  }
  return total;
}

export const workUnitEventsTask = defineTask({
  name: 'rules.work-unit-events',
  payload: z.object({}),
  every: WORK_UNIT_EVENTS_EVERY_MS,
  wakeOn: WORK_UNIT_EVENT_CHANNEL,
  perform: async (_payload, { db }) => {
    await evaluateWorkUnitEvents(db);
  },
});

/** The least quiet time a rule's Time Since Last Packet condition asks for (GreaterThan…), or undefined. */
function silenceThreshold(rule: CompiledRule): number | undefined {
  const thresholds = rule.conditions.flatMap((condition) => {
    const { LeftOperand, Operator, RightOperand } = condition.condition;
    if (
      LeftOperand !== LEFT_OPERANDS.PacketAge.id ||
      (Operator !== OPERATORS.GreaterThan && Operator !== OPERATORS.GreaterThanOrEqual)
    )
      return [];
    return lifetimeSeconds(RightOperand ?? '') ?? [];
  });
  return thresholds.length > 0 ? Math.min(...thresholds) : undefined;
}

/**
 * History rules on Time Since Last Packet: entities that went quiet send nothing to evaluate, so
 * each such rule is checked on a timer against the latest packet of its tenant's entities (the
 * quietest first) with their age now. A quiet entity matched with a sliding lifetime stays matched
 * while it stays quiet; once it reports again the match runs out and its expiration actions run.
 */
export async function sweepSilence(db: Db, now = new Date()): Promise<number> {
  const rules = (await loadRuleRows(db, null))
    .flatMap((row) => compileRule(row) ?? [])
    .filter((rule) => rule.watchesSilence && rule.mode === 'history');
  let matched = 0;
  for (const rule of rules) {
    const threshold = silenceThreshold(rule);
    if (threshold === undefined || !rule.inTime(now)) continue;
    let query = scoped(db, ALL_TENANTS)
      .selectFrom('packet_latest')
      .select(['entity_id', 'tenant_id', 'timestamp', 'message'])
      .where('timestamp', '<', new Date(now.getTime() - threshold * 1000));
    if (rule.tenantId) query = query.where('tenant_id', '=', rule.tenantId);
    const quiet = await query.orderBy('timestamp').limit(SILENCE_SWEEP_MAX).execute();
    const candidates: MatchCandidate[] = [];
    for (const row of quiet) {
      const tenant = await rulesFor(db, row.tenant_id);
      const subject = {
        kind: 'packet' as const,
        tenantId: row.tenant_id,
        entityId: row.entity_id,
        deviceId: null,
        timestamp: row.timestamp,
        message: row.message as Record<string, unknown>,
        ageSeconds: Math.floor((now.getTime() - row.timestamp.getTime()) / 1000),
      };
      if (!holdsFor(rule, subject)) continue;
      const maintained =
        tenant.maintenance.some((maintenance) => maintenance.inTime(now) && holdsFor(maintenance, subject)) ||
        silenced(tenant.silences, rule.ruleId, { subjectId: row.entity_id, label: labelOf(subject) }, now);
      candidates.push({
        rule,
        tenantId: row.tenant_id,
        subjectId: row.entity_id,
        label: labelOf(subject),
        count: 1,
        first: now,
        last: now,
        packet: { entityId: row.entity_id, timestamp: row.timestamp.toISOString(), message: subject.message },
        reason: reasonFor(rule, subject),
        inMaintenance: maintained,
      });
    }
    if (candidates.length > 0) await db.transaction().execute((trx) => recordMatches(trx, candidates, now));
    matched += candidates.length;
  }
  return matched;
}

export const silenceTask = defineTask({
  name: 'rules.silence',
  payload: z.object({}),
  every: SILENCE_EVERY_MS,
  perform: async (_payload, { db }) => {
    await sweepSilence(db);
  },
});

/** The rule engine's tasks, run by the worker role. */
export const RULE_ENGINE_TASKS: readonly TaskDefinition<unknown>[] = [
  ruleActionTask,
  windowTask,
  expireMatchesTask,
  workUnitEventsTask,
  silenceTask,
  maintenanceEndTask,
  repeatTask,
  groupTask,
];
