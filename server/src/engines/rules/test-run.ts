import { sql, type RawBuilder } from 'kysely';
import { LEFT_OPERANDS, OPERATORS, leftOperandById } from '@cfs/contracts/monitoring';
import { DEFAULT_GROUP_WAIT } from '@cfs/contracts/notification-policy';
import { formatInterval, intervalSeconds } from '@cfs/contracts/device-operations';
import {
  RULE_MESSAGES,
  RULE_TEST_WINDOWS,
  defaultClosesOn,
  lifetimeSeconds,
  tenantCondition,
  type RuleTestResult,
  type RuleValues,
  type RuleTestWindow,
} from '@cfs/contracts/rules';
import { canAccessTenant, type TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError } from '../../http/errors.js';
import {
  compileRule,
  holdsFor,
  recoveredBy,
  holdsOverHistory,
  labelOf,
  type CompiledRule,
  type PacketSubject,
  type Subject,
  type WorkUnitSubject,
} from './compile.js';
import {
  replayExpiry,
  replayMatch,
  replayRecovering,
  replayRecoveringDue,
  withinLifetime,
  type ReplayedMatch,
} from './match-semantics.js';
import { AGGREGATION_WINDOW_MAX, aggregateHolds, aggregateSubject } from './window.js';
import { groupByOf, isNotifying, replayNotifications } from './groups.js';

/** Packets a test reads at most; beyond, it reports on the newest it read and says so. */
export const TEST_PACKETS_MAX = 2_000_000;
const PAGE = 50_000;
/** How long a Test's read of its window may take. */
export const TEST_STATEMENT_TIMEOUT_MS = 60_000;
/** Subjects a test answer lists at most, the most matched first. */
export const TEST_SUBJECTS_MAX = 500;

interface SubjectRun {
  subjectId: string;
  label: string | null;
  /** Its matches, oldest first, as the engine would have recorded them (match-semantics.ts). */
  matches: ReplayedMatch[];
  /** History and Aggregation: the subject's recent packets, newest first. */
  recent: PacketSubject[];
}

/**
 * The packet fields the rule reads (and Properties.BlockName for labels), each fetched as its own
 * column — a JSON scalar, found by its exact name or else without regard to case, as the engine
 * reads it — so that a test moves and parses those values and not whole messages.
 */
function projectedFields(rule: CompiledRule): string[][] {
  const paths = new Map<string, string[]>([['Properties.BlockName', ['Properties', 'BlockName']]]);
  for (const { condition, aggregate } of [...rule.conditions, ...(rule.recovery ?? [])]) {
    const operand = leftOperandById(condition.LeftOperand);
    const path = aggregate
      ? (condition.LeftOperandFieldName ?? 'Value')
      : operand === LEFT_OPERANDS.Value
        ? 'Value'
        : operand?.field && condition.LeftOperandFieldName
          ? `${operand.name}.${condition.LeftOperandFieldName}`
          : undefined;
    if (path) paths.set(path, path.split('.').slice(0, 2));
  }
  return [...paths.values()];
}

function fieldColumn(path: readonly string[], index: number) {
  const [first, second] = path as [string, string | undefined];
  const lookup = (container: RawBuilder<unknown>, name: string) =>
    sql`coalesce(${container} -> ${name}, (SELECT e.value FROM jsonb_each(CASE WHEN jsonb_typeof(${container}) = 'object' THEN ${container} END) e WHERE lower(e.key) = ${name.toLowerCase()} LIMIT 1))`;
  const top = lookup(sql`message`, first);
  return (second === undefined ? top : lookup(top, second)).as(`f${index}`);
}

/** A message holding only the fields a test fetched, in their groups, as the engine reads messages. */
function messageOf(fields: readonly string[][], row: Record<string, unknown>): Record<string, unknown> {
  const message: Record<string, Record<string, unknown> | unknown> = {};
  fields.forEach(([first, second], index) => {
    const value = row[`f${index}`];
    if (value === null || value === undefined) return;
    if (second === undefined) message[first!] = value;
    else ((message[first!] ??= {}) as Record<string, unknown>)[second] = value;
  });
  return message;
}

const ORDERED: Partial<Record<number, string>> = {
  [OPERATORS.GreaterThan]: '>',
  [OPERATORS.LessThan]: '<',
  [OPERATORS.GreaterThanOrEqual]: '>=',
  [OPERATORS.LessThanOrEqual]: '<=',
};
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * For a rule judged packet by packet whose conditions are all joined by And: a condition the
 * database can check without ever refusing a packet the engine would take, so that only the
 * packets that may match leave the database. A numeric comparison of a field refuses only a JSON
 * number under the exact name that fails it (read as a double, as the engine reads it); an entity
 * is compared as an id. Every other condition, and every packet the engine might read otherwise
 * (a field named in another case, a number written as text), is left to the engine.
 */
function prefilter(rule: CompiledRule): RawBuilder<boolean> | undefined {
  if (rule.conditions.some((condition, position) => position > 0 && condition.condition.Type !== 0)) return undefined;
  const checks = rule.conditions.flatMap(({ condition }) => {
    const operand = leftOperandById(condition.LeftOperand);
    const right = condition.RightOperand?.trim() ?? '';
    if (
      condition.LeftOperand === LEFT_OPERANDS.Entity.id &&
      condition.Operator === OPERATORS.Equals &&
      UUID_TEXT.test(right)
    )
      return [sql<boolean>`entity_id = ${right}::uuid`];
    const symbol = ORDERED[condition.Operator];
    const number = Number(right);
    if (!symbol || right === '' || !Number.isFinite(number)) return [];
    const path =
      operand === LEFT_OPERANDS.Value
        ? ['Value']
        : operand?.field && condition.LeftOperandFieldName && !condition.LeftOperandFieldName.includes('.')
          ? [operand.name, condition.LeftOperandFieldName]
          : undefined;
    if (!path) return [];
    const value = sql`(message #> ${path})`;
    return [
      sql<boolean>`(jsonb_typeof(${value}) IS DISTINCT FROM 'number' OR (${value} #>> '{}')::float8 ${sql.raw(symbol)} ${number}::float8)`,
    ];
  });
  return checks.length === 0 ? undefined : sql<boolean>`(${sql.join(checks, sql` AND `)})`;
}

function ruleOf(values: RuleValues): CompiledRule {
  const conditions =
    values.tenantId && !values.conditions.some((condition) => condition.LeftOperand === LEFT_OPERANDS.Tenant.id)
      ? [tenantCondition(values.tenantId), ...values.conditions]
      : values.conditions;
  const compiled = compileRule({
    rule_id: '00000000-0000-4000-8000-000000000000',
    name: values.name,
    tenant_id: values.tenantId,
    rule_type_id: values.ruleTypeId,
    match_lifetime_seconds: lifetimeSeconds(values.matchLifetime) ?? 300,
    use_sliding_expiration: values.useSlidingExpiration,
    time_conditions: values.timeConditions ? (JSON.parse(values.timeConditions) as unknown) : null,
    conditions,
    match_actions: values.matchActions,
    expiration_actions: values.expirationActions,
    closes_on: values.closesOn ?? defaultClosesOn(values),
    pending_seconds: values.pendingFor ? (lifetimeSeconds(values.pendingFor) ?? 0) : 0,
    recovery_conditions: values.recoveryConditions ?? null,
  });
  if (!compiled) throw new BadRequestError(RULE_MESSAGES.testNotRunnable);
  return compiled;
}

/**
 * Runs a rule as it stands in the editor (unsaved) over the stored data of a window, as the
 * engine would have, and tells what it would have done — subjects, matches, expirations, action
 * runs — without creating a match or running an action. Packets are read in (entity, time) order
 * through one cursor, with only the fields the rule reads; each subject's
 * matches are replayed in time by the engine's own semantics (match-semantics.ts): a match opens,
 * repeats raise it (and push its expiry out when the rule slides), and a match whose lifetime ran
 * out before the next one expired.
 */
export async function testRule(
  db: Db,
  scope: TenantScope,
  values: RuleValues,
  window: RuleTestWindow,
  now = new Date(),
): Promise<RuleTestResult> {
  const started = performance.now();
  const rule = ruleOf(values);
  if (values.tenantId && !canAccessTenant(scope, values.tenantId))
    throw new BadRequestError(RULE_MESSAGES.testTenantNotAllowed);
  const testScope: TenantScope = values.tenantId ? { kind: 'some', tenantIds: [values.tenantId] } : scope;
  const from = new Date(now.getTime() - RULE_TEST_WINDOWS[window]);
  const runs = new Map<string, SubjectRun>();
  let examined = 0;
  let narrowed: RawBuilder<boolean> | undefined;
  let truncated = false;

  const runOf = (subjectId: string) => {
    let run = runs.get(subjectId);
    if (!run) runs.set(subjectId, (run = { subjectId, label: null, matches: [], recent: [] }));
    return run;
  };
  const hit = (subject: Subject, subjectId: string, at: Date) => {
    const run = runOf(subjectId);
    replayMatch(run.matches, at.getTime(), rule);
    run.label ??= labelOf(subject);
  };

  if (rule.mode === 'workUnit') {
    const events = await scoped(db, testScope)
      .selectFrom('work_unit_event')
      .innerJoin('work_unit', 'work_unit.work_unit_id', 'work_unit_event.work_unit_id')
      .select([
        'work_unit_event.event_type_id',
        'work_unit_event.created',
        'work_unit.work_unit_id',
        'work_unit.tenant_id',
        'work_unit.work_unit_type_id',
        'work_unit.severity_id',
        'work_unit.state_id',
        'work_unit.title',
      ])
      .where('work_unit_event.created', '>=', from)
      .orderBy('work_unit_event.created')
      .limit(TEST_PACKETS_MAX + 1)
      .execute();
    truncated = events.length > TEST_PACKETS_MAX;
    for (const event of events.slice(0, TEST_PACKETS_MAX)) {
      examined += 1;
      const subject: WorkUnitSubject = {
        kind: 'workUnit',
        tenantId: event.tenant_id,
        workUnitId: event.work_unit_id,
        eventTypeId: event.event_type_id,
        workUnitTypeId: event.work_unit_type_id,
        severityId: event.severity_id,
        stateId: event.state_id,
        title: event.title,
        timestamp: event.created,
      };
      if (rule.inTime(event.created) && holdsFor(rule, subject))
        hit(subject, String(event.work_unit_id), event.created);
    }
  } else {
    const correlation = rule.mode === 'correlation';
    const members = new Map<string, Map<string, number>>();
    const fields = projectedFields(rule);
    let query = scoped(db, testScope)
      .selectFrom('packet')
      .select([
        'entity_id',
        'tenant_id',
        sql<number>`(extract(epoch from timestamp) * 1000)::float8`.as('at'),
        ...fields.map(fieldColumn),
      ])
      .where('timestamp', '>=', from)
      .where('timestamp', '<=', now);
    // A rule that closes on recovery reads every packet: those that do not match end its matches.
    narrowed = (rule.mode === 'packet' && !rule.recovers) || rule.mode === 'maintenance' ? prefilter(rule) : undefined;
    if (narrowed) query = query.where(narrowed);
    query = correlation
      ? query.orderBy('timestamp').orderBy('entity_id')
      : query.orderBy('entity_id').orderBy('timestamp');
    // One query read through a cursor a page at a time: sorted once, each page a short fetch.
    await db.transaction().execute(async (trx) => {
      // The window's packets are sorted once for the replay: in memory rather than on disk. Its
      // first fetch reads the whole window (a week may hold millions of packets), so it may take
      // longer than a request's usual statement timeout: this one request is allowed a minute.
      await sql`SET LOCAL work_mem = '128MB'`.execute(trx);
      await sql`SET LOCAL statement_timeout = ${sql.lit(`${TEST_STATEMENT_TIMEOUT_MS}ms`)}`.execute(trx);
      await sql`DECLARE rule_test NO SCROLL CURSOR FOR ${query.limit(TEST_PACKETS_MAX + 1)}`.execute(trx);
      for (;;) {
        const { rows: page } = await sql<
          { entity_id: string; tenant_id: string; at: number } & Record<string, unknown>
        >`FETCH ${sql.raw(String(PAGE))} FROM rule_test`.execute(trx);
        for (const row of page) {
          if (examined === TEST_PACKETS_MAX) {
            truncated = true;
            break;
          }
          examined += 1;
          const timestamp = new Date(row.at);
          const subject: PacketSubject = {
            kind: 'packet',
            tenantId: row.tenant_id,
            entityId: row.entity_id,
            deviceId: null,
            timestamp,
            message: messageOf(fields, row),
          };
          if (rule.recovers) {
            const conditionsHold = holdsFor(rule, subject);
            const run = runOf(row.entity_id);
            replayRecovering(run.matches, row.at, rule, {
              holds: conditionsHold && rule.inTime(timestamp),
              conditionsHold,
              recovered: recoveredBy(rule, subject),
            });
            if (conditionsHold) run.label ??= labelOf(subject);
            continue;
          }
          if (!rule.inTime(timestamp)) continue;
          const time = row.at;
          if (rule.mode === 'packet' || rule.mode === 'maintenance') {
            if (holdsFor(rule, subject)) hit(subject, row.entity_id, timestamp);
          } else if (rule.mode === 'history' || rule.mode === 'aggregate') {
            const run = runOf(row.entity_id);
            const recent = [subject, ...run.recent]
              .filter((packet) => withinLifetime(packet.timestamp.getTime(), time, rule))
              .slice(0, rule.mode === 'history' ? rule.historyDepth : AGGREGATION_WINDOW_MAX);
            const holds =
              rule.mode === 'history'
                ? holdsOverHistory(rule, recent)
                : ((folded) => folded !== undefined && aggregateHolds(rule, folded))(aggregateSubject(rule, recent));
            if (holds) hit(subject, row.entity_id, timestamp);
            run.recent = recent;
          } else if (holdsFor(rule, subject)) {
            const seen = members.get(row.tenant_id) ?? new Map<string, number>();
            members.set(row.tenant_id, seen.set(row.entity_id, time));
            let recent = 0;
            for (const last of seen.values())
              if (withinLifetime(last, time, rule) && ++recent >= rule.occurrenceCount) break;
            if (recent >= rule.occurrenceCount) hit(subject, row.tenant_id, timestamp);
          }
        }
        if (page.length < PAGE || truncated) break;
      }
    });
  }

  if (narrowed) {
    // The database looked at every packet of the window to hand over the ones that may match.
    const counted = await scoped(db, testScope)
      .selectFrom('packet')
      .select(sql<string>`count(*)`.as('n'))
      .where('timestamp', '>=', from)
      .where('timestamp', '<=', now)
      .executeTakeFirstOrThrow();
    examined = Number(counted.n);
  }
  // What the expiry sweep would have closed by now; then each subject's matches summed up.
  const matched = [...runs.values()].flatMap(({ subjectId, label, matches }) => {
    if (rule.recovers) replayRecoveringDue(matches, now.getTime(), rule);
    else replayExpiry(matches, now.getTime());
    // A match still pending never opened: nothing of it ran.
    const opened = matches.filter((match) => !match.pending);
    const [first, last] = [opened[0], opened.at(-1)];
    if (!first || !last) return [];
    return [
      {
        subjectId,
        label,
        firstMatch: new Date(first.first).toISOString(),
        lastMatch: new Date(last.last).toISOString(),
        matchCount: opened.reduce((total, match) => total + match.count, 0),
        opened: opened.length,
        expirations: opened.flatMap((match) => (match.closed ? [new Date(match.expires).toISOString()] : [])),
        outcomes: opened.flatMap((match) => (match.closed && match.outcome ? [match.outcome] : [])),
        notices: opened.map((match) => ({
          opened: match.first + (rule.recovers ? rule.pendingSeconds * 1000 : 0),
          closes: match.closed ? match.expires : null,
        })),
      },
    ];
  });
  const notifications =
    rule.mode === 'maintenance' ? null : await notificationsOf(db, values, rule, matched, testScope, now.getTime());
  const opened = matched.reduce((total, run) => total + run.opened, 0);
  const expired = matched.reduce((total, run) => total + run.expirations.length, 0);
  const actionIds = [
    ...new Set([...rule.matchActions, ...rule.expirationActions].map((action) => action.ActionDefinitionId)),
  ];
  const names = new Map(
    actionIds.length === 0
      ? []
      : (
          await scoped(db, scope)
            .selectFrom('action_definition')
            .select(['action_definition_id', 'name'])
            .where('action_definition_id', 'in', actionIds)
            .execute()
        ).map((row) => [row.action_definition_id, row.name]),
  );
  const actions = [
    ...rule.matchActions.map((action) => ({
      phase: 'match' as const,
      actionDefinitionId: action.ActionDefinitionId,
      name: names.get(action.ActionDefinitionId) ?? action.ActionDefinitionId,
      runs:
        rule.mode === 'maintenance'
          ? 0
          : notifications && isNotifying(action.ActionDefinitionId)
            ? notifications.sent + notifications.repeats
            : opened,
    })),
    ...rule.expirationActions.map((action) => ({
      phase: 'expiration' as const,
      actionDefinitionId: action.ActionDefinitionId,
      name: names.get(action.ActionDefinitionId) ?? action.ActionDefinitionId,
      runs: rule.mode === 'maintenance' ? 0 : expired,
    })),
  ];
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    packetsExamined: examined,
    truncated,
    elapsedMs: Math.round(performance.now() - started),
    subjects: matched
      .sort((a, b) => b.matchCount - a.matchCount || a.subjectId.localeCompare(b.subjectId))
      .slice(0, TEST_SUBJECTS_MAX)
      .map((run) => ({
        subjectId: run.subjectId,
        label: run.label,
        firstMatch: run.firstMatch,
        lastMatch: run.lastMatch,
        matchCount: run.matchCount,
        expirations: run.expirations,
        outcomes: run.outcomes,
      })),
    actions,
    notifications,
  };
}

/**
 * The tenant's notification policy over the replayed matches (groups.ts `replayNotifications`):
 * for a rule of one tenant with a notifying match action. A location or subscription is the
 * subject's device's (a subscription else the rule's); a subject of no device has none.
 */
async function notificationsOf(
  db: Db,
  values: RuleValues,
  rule: CompiledRule,
  matched: readonly { subjectId: string; notices: readonly { opened: number; closes: number | null }[] }[],
  scope: TenantScope,
  end: number,
): Promise<RuleTestResult['notifications']> {
  if (!values.tenantId || !rule.matchActions.some((action) => isNotifying(action.ActionDefinitionId))) return null;
  const tx = scoped(db, scope);
  const policy = await tx
    .selectFrom('notification_policy')
    .select(['repeat_seconds', 'group_by', 'group_wait_seconds'])
    .where('tenant_id', '=', values.tenantId)
    .executeTakeFirst();
  const groupBy = groupByOf(policy?.group_by ?? null);
  const deviceIds =
    groupBy && groupBy !== 'rule' ? matched.map((run) => run.subjectId).filter((id) => UUID_TEXT.test(id)) : [];
  const devices = new Map(
    (deviceIds.length === 0
      ? []
      : await tx
          .selectFrom('device')
          .select(['device_id', 'location_id', 'subscription_id'])
          .where('device_id', 'in', deviceIds)
          .execute()
    ).map((device) => [device.device_id, device]),
  );
  const keyOf = (subjectId: string): string => {
    const device = devices.get(subjectId);
    if (groupBy === 'location') return device?.location_id ?? '';
    if (groupBy === 'subscription') return device?.subscription_id ?? values.subscriptionId ?? '';
    return '';
  };
  const notices = matched.flatMap((run) => run.notices.map((notice) => ({ ...notice, key: keyOf(run.subjectId) })));
  const groupWaitSeconds = policy?.group_wait_seconds ?? intervalSeconds(DEFAULT_GROUP_WAIT) ?? 30;
  const { sent, repeats } = replayNotifications(
    notices,
    {
      grouped: groupBy !== null,
      groupWaitMs: groupWaitSeconds * 1000,
      repeatMs: policy?.repeat_seconds ? policy.repeat_seconds * 1000 : null,
    },
    end,
  );
  return {
    groupBy,
    groupWait: formatInterval(groupWaitSeconds),
    repeatEvery: policy?.repeat_seconds ? formatInterval(policy.repeat_seconds) : null,
    matches: notices.length,
    sent,
    repeats,
  };
}
