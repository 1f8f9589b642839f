import {
  LEFT_OPERANDS,
  OCCURRENCE_PATTERN,
  RULE_TYPES,
  leftOperandById,
  type OperatorId,
} from '@cfs/contracts/monitoring';
import {
  conditionSchema,
  lifetimeSeconds,
  ruleActionSchema,
  timeConditionsSchema,
  type Condition,
  type MatchReason,
  type RuleAction,
} from '@cfs/contracts/rules';
import { SEVERITIES, WORK_UNIT_EVENT_TYPES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { z } from 'zod';
import { keepBounded } from '../../bounded-map.js';
import { compileOperator, asText, operatorName, type Comparator } from './operators.js';
import { compileTimeWindow, type TimeWindow } from './time-window.js';

/** What a packet condition reads: the packet, its entity, device and tenant. */
export interface PacketSubject {
  kind: 'packet';
  tenantId: string;
  entityId: string;
  deviceId: string | null;
  timestamp: Date;
  message: Readonly<Record<string, unknown>>;
  /** Seconds since the entity's last packet (History rules' Time Since Last Packet). */
  ageSeconds?: number;
  /** Aggregation rules: the value of each aggregate condition, by its index. */
  aggregates?: ReadonlyMap<number, number | null>;
}

/** What a work unit condition reads: the event and the unit as it stood after it. */
export interface WorkUnitSubject {
  kind: 'workUnit';
  tenantId: string;
  workUnitId: number;
  eventTypeId: number;
  workUnitTypeId: number;
  severityId: number;
  stateId: number;
  title: string;
  timestamp: Date;
}

export type Subject = PacketSubject | WorkUnitSubject;

interface CompiledCondition {
  index: number;
  condition: Condition;
  read: (subject: Subject) => unknown;
  test: Comparator;
  /** N of M (OccurrencePattern), when the condition has one other than every time. */
  occurrence: { n: number; m: number } | null;
  aggregate: 'Count' | 'Average' | 'Minimum' | 'Maximum' | 'Sum' | null;
  /** How a match's reason names the left operand ('Metrics.CpuPercent', 'Average(Value)') and the operator. */
  leftOperandLabel: string;
  operatorLabel: string;
}

/** How a rule is evaluated (README "Rules"). */
export type RuleMode = 'packet' | 'history' | 'aggregate' | 'correlation' | 'maintenance' | 'workUnit';

export interface CompiledRule {
  ruleId: string;
  name: string;
  tenantId: string | null;
  ruleTypeId: number;
  mode: RuleMode;
  lifetimeSeconds: number;
  sliding: boolean;
  /** Whether the rule may match at `at` (time limitations; always when it has none). */
  inTime: TimeWindow;
  conditions: readonly CompiledCondition[];
  matchActions: readonly RuleAction[];
  expirationActions: readonly RuleAction[];
  /** Correlation: how many distinct entities make a match. History: the packets read per entity. */
  occurrenceCount: number;
  historyDepth: number;
  /** History rules with Time Since Last Packet: checked by the silence sweep, not by arriving packets. */
  watchesSilence: boolean;
  /**
   * Its matches close on recovery (docs/features/rules.md "A match's life"): they slide with every
   * packet that holds, and the recovery sweep closes them (recovery.ts).
   */
  recovers: boolean;
  /** How long the conditions must hold before a match opens (recovering rules; 0 for none). */
  pendingSeconds: number;
  /** What ends a recovering match; undefined: the conditions no longer holding. */
  recovery: readonly CompiledCondition[] | undefined;
}

/** A rule row as the engine reads it (the columns of table `rule`). */
export interface RuleRow {
  rule_id: string;
  name: string;
  tenant_id: string | null;
  rule_type_id: number;
  match_lifetime_seconds: number;
  use_sliding_expiration: boolean;
  time_conditions: unknown;
  conditions: unknown;
  match_actions: unknown;
  expiration_actions: unknown;
  closes_on: string;
  pending_seconds: number;
  recovery_conditions: unknown;
}

/**
 * Reads a group's own field by its exact name or else without regard to case (agents differ in
 * casing), made once per name. Every packet passes here for each field its tenant's rules read,
 * so the exact name is one lookup; the search without case lowers only keys that could match: a
 * key lowers to an ASCII name only when it is as long (the one lowering that lengthens a text
 * writes a non-ASCII mark).
 */
function fieldOf(name: string): (group: unknown) => unknown {
  const lower = name.toLowerCase();
  const ascii = [...name].every((character) => character.charCodeAt(0) < 128);
  return (group) => {
    if (group === null || typeof group !== 'object') return undefined;
    const record = group as Record<string, unknown>;
    if (Object.hasOwn(record, name)) return record[name];
    for (const key in record)
      if ((!ascii || key.length === name.length) && Object.hasOwn(record, key) && key.toLowerCase() === lower)
        return record[key];
    return undefined;
  };
}

/** Names whose readers are kept; rules name few fields, and beyond this many the oldest is forgotten. */
const FIELDS_KEPT = 1000;
const fields = new Map<string, (group: unknown) => unknown>();
/** A group's field (`fieldOf`), its reader made once per name. */
function field(group: unknown, name: string): unknown {
  const read = fields.get(name) ?? keepBounded(fields, name, fieldOf(name), FIELDS_KEPT);
  return read(group);
}

/** The message's own fields: its Value and its groups. */
const MESSAGE_FIELDS = {
  Value: fieldOf('Value'),
  Properties: fieldOf('Properties'),
  Metrics: fieldOf('Metrics'),
  States: fieldOf('States'),
  Diagnostics: fieldOf('Diagnostics'),
} as const;

/** A packet field named as `Value`, `Metrics.cpu` or `cpu` with its group given. */
export function packetField(message: Readonly<Record<string, unknown>>, path: string): unknown {
  const dot = path.indexOf('.');
  if (dot < 0) return field(message, path);
  return field(field(message, path.slice(0, dot)), path.slice(dot + 1));
}

/** Ids of the work unit enumerations, also accepted by name in a right operand ('OnNew', 'Sev1', 'Incident', 'Resolved'). */
const NAMED_IDS: Partial<Record<string, Record<string, number>>> = {
  workUnitEvent: WORK_UNIT_EVENT_TYPES,
  severity: SEVERITIES,
  workUnitType: WORK_UNIT_TYPES,
  workUnitState: WORK_UNIT_STATES,
};

function reader(condition: Condition): (subject: Subject) => unknown {
  const named = fieldOf(condition.LeftOperandFieldName ?? '');
  const packet = (read: (subject: PacketSubject) => unknown) => (subject: Subject) =>
    subject.kind === 'packet' ? read(subject) : undefined;
  const unit = (read: (subject: WorkUnitSubject) => unknown) => (subject: Subject) =>
    subject.kind === 'workUnit' ? read(subject) : undefined;
  switch (condition.LeftOperand) {
    case LEFT_OPERANDS.Value.id:
      return packet((subject) => MESSAGE_FIELDS.Value(subject.message));
    case LEFT_OPERANDS.Property.id:
      return packet((subject) => named(MESSAGE_FIELDS.Properties(subject.message)));
    case LEFT_OPERANDS.Metric.id:
      return packet((subject) => named(MESSAGE_FIELDS.Metrics(subject.message)));
    case LEFT_OPERANDS.State.id:
      return packet((subject) => named(MESSAGE_FIELDS.States(subject.message)));
    case LEFT_OPERANDS.Diagnostic.id:
      return packet((subject) => named(MESSAGE_FIELDS.Diagnostics(subject.message)));
    case LEFT_OPERANDS.Entity.id:
      return packet((subject) => subject.entityId);
    case LEFT_OPERANDS.Device.id:
      return packet((subject) => subject.deviceId);
    case LEFT_OPERANDS.PacketAge.id:
      return packet((subject) => subject.ageSeconds);
    case LEFT_OPERANDS.Tenant.id:
      return (subject) => subject.tenantId;
    case LEFT_OPERANDS.WorkUnitEvent.id:
      return unit((subject) => subject.eventTypeId);
    case LEFT_OPERANDS.WorkUnitType.id:
      return unit((subject) => subject.workUnitTypeId);
    case LEFT_OPERANDS.Severity.id:
      return unit((subject) => subject.severityId);
    case LEFT_OPERANDS.WorkUnitState.id:
      return unit((subject) => subject.stateId);
    case LEFT_OPERANDS.WorkUnitTitle.id:
      return unit((subject) => subject.title);
    default:
      // The aggregates: computed over the window by the engine and handed in by condition index.
      return () => undefined;
  }
}

const AGGREGATES = {
  [LEFT_OPERANDS.Count.id]: 'Count',
  [LEFT_OPERANDS.Average.id]: 'Average',
  [LEFT_OPERANDS.Minimum.id]: 'Minimum',
  [LEFT_OPERANDS.Maximum.id]: 'Maximum',
  [LEFT_OPERANDS.Sum.id]: 'Sum',
} as const;

/** The right operand as the comparator takes it: a time span as seconds, an enumeration's name as its id. */
function rightOperandOf(condition: Condition): string | null {
  const right = condition.RightOperand;
  const operand = leftOperandById(condition.LeftOperand);
  if (right === null || !operand) return right;
  if (operand.type === 'timespan') {
    const seconds = lifetimeSeconds(right);
    return seconds === undefined ? right : String(seconds);
  }
  const names = NAMED_IDS[operand.type];
  if (names && Number.isNaN(Number(right))) {
    const entry = Object.entries(names).find(([key]) => key.toLowerCase() === right.trim().toLowerCase());
    if (entry) return String(entry[1]);
  }
  return right;
}

function compileCondition(condition: Condition, index: number): CompiledCondition {
  const pattern = condition.OccurrencePattern ? OCCURRENCE_PATTERN.exec(condition.OccurrencePattern) : null;
  const n = pattern ? Number(pattern[1]) : 1;
  const m = pattern ? Math.max(Number(pattern[2]), n) : 1;
  const aggregate = (AGGREGATES as Record<number, CompiledCondition['aggregate']>)[condition.LeftOperand] ?? null;
  const test = compileOperator(condition.Operator as OperatorId, rightOperandOf(condition));
  const read = aggregate
    ? (subject: Subject) => (subject.kind === 'packet' ? subject.aggregates?.get(index) : undefined)
    : reader(condition);
  const operand = leftOperandById(condition.LeftOperand);
  const leftOperandLabel = aggregate
    ? `${aggregate}(${condition.LeftOperandFieldName ?? 'Value'})`
    : operand?.field
      ? `${operand.name}.${condition.LeftOperandFieldName ?? ''}`
      : (operand?.name ?? String(condition.LeftOperand));
  return {
    index,
    condition,
    read,
    test,
    occurrence: n === 1 && m === 1 ? null : { n, m },
    aggregate,
    leftOperandLabel,
    operatorLabel: operatorName(condition.Operator),
  };
}

/**
 * Joins the conditions left to right, each with its Type (And/Or) against the result so far, with
 * no precedence (as the editor lists them): `a AND b OR c` is `(a AND b) OR c`.
 */
export function joinConditions(
  conditions: readonly CompiledCondition[],
  holds: (condition: CompiledCondition) => boolean,
): boolean {
  let result = false;
  for (let position = 0; position < conditions.length; position++) {
    const condition = conditions[position]!;
    if (position === 0) result = holds(condition);
    else if (condition.condition.Type === 1) result = result || holds(condition);
    else result = result && holds(condition);
  }
  return result;
}

const ALWAYS: TimeWindow = () => true;

/**
 * A stored rule made ready to run: conditions, operators, patterns and time limitations compiled
 * once per change of the rule, not per packet. A rule whose stored JSON no longer reads (it was
 * written by hand) compiles to undefined and is left out, never stopping the others.
 */
export function compileRule(row: RuleRow): CompiledRule | undefined {
  const conditions = z.array(conditionSchema).min(1).safeParse(row.conditions);
  const time = row.time_conditions === null ? null : timeConditionsSchema.safeParse(row.time_conditions);
  const actions = z.array(ruleActionSchema).safeParse(row.match_actions);
  const expirations = z.array(ruleActionSchema).safeParse(row.expiration_actions);
  const recoveryConditions =
    row.recovery_conditions === null ? null : z.array(conditionSchema).min(1).safeParse(row.recovery_conditions);
  if (
    !conditions.success ||
    (time && !time.success) ||
    !actions.success ||
    !expirations.success ||
    (recoveryConditions && !recoveryConditions.success)
  )
    return undefined;
  const compiled = conditions.data.map(compileCondition);
  const patterned = compiled.filter((condition) => condition.occurrence);
  const mode: RuleMode = (() => {
    switch (row.rule_type_id) {
      case RULE_TYPES.Ingestion:
        return patterned.length > 0 ? 'history' : 'packet';
      case RULE_TYPES.History:
        return 'history';
      case RULE_TYPES.Aggregation:
        return 'aggregate';
      case RULE_TYPES.Correlation:
        return 'correlation';
      case RULE_TYPES.Maintenance:
        return 'maintenance';
      default:
        return 'workUnit';
    }
  })();
  return {
    ruleId: row.rule_id,
    name: row.name,
    tenantId: row.tenant_id,
    ruleTypeId: row.rule_type_id,
    mode,
    lifetimeSeconds: row.match_lifetime_seconds,
    sliding: row.use_sliding_expiration || (row.closes_on === 'recovery' && mode === 'packet'),
    inTime: time?.success ? compileTimeWindow(time.data) : ALWAYS,
    conditions: compiled,
    matchActions: actions.data,
    expirationActions: expirations.data,
    occurrenceCount: Math.max(2, ...patterned.map((condition) => condition.occurrence!.n)),
    historyDepth: Math.max(1, ...patterned.map((condition) => condition.occurrence!.m)),
    watchesSilence: compiled.some((condition) => condition.condition.LeftOperand === LEFT_OPERANDS.PacketAge.id),
    recovers: row.closes_on === 'recovery' && mode === 'packet',
    pendingSeconds: row.closes_on === 'recovery' && mode === 'packet' ? row.pending_seconds : 0,
    recovery: recoveryConditions?.success ? recoveryConditions.data.map(compileCondition) : undefined,
  };
}

/** Whether the rule's conditions hold for one subject (packet, or work unit event). */
export function holdsFor(rule: CompiledRule, subject: Subject): boolean {
  return joinConditions(rule.conditions, (condition) => condition.test(condition.read(subject)));
}

/**
 * Whether a recovering match of the rule is over, by one packet of its subject: its recovery
 * conditions hold, or, without them, its conditions no longer hold. Time limitations do not
 * apply: they decide when a rule may match, not whether a problem that opened is over.
 */
export function recoveredBy(rule: CompiledRule, subject: Subject): boolean {
  if (!rule.recovery) return !holdsFor(rule, subject);
  return joinConditions(rule.recovery, (condition) => condition.test(condition.read(subject)));
}

/**
 * A tenant's packet rules as one evaluator, run on every packet ingested: it answers which rules
 * match the packet, as `rule.inTime` and `holdsFor` would for each. Rules of a tenant share their
 * conditions' reads (every rule holds the automatic tenant condition; thresholds on one metric
 * read the same field), so each distinct left operand is read once per packet and each distinct
 * condition tested at most once, and the rules are joined over those answers (`joinConditions`'
 * order, with its short cuts) without a closure per rule.
 */
export function packetEvaluator(rules: readonly CompiledRule[]): (subject: PacketSubject) => readonly CompiledRule[] {
  const readerSlots = new Map<string, number>();
  const readers: ((subject: Subject) => unknown)[] = [];
  const testSlots = new Map<string, number>();
  const tests: Comparator[] = [];
  const testReader: number[] = [];
  const slotOf = (condition: CompiledCondition): number => {
    const { LeftOperand, LeftOperandFieldName, Operator, RightOperand } = condition.condition;
    // An aggregate is read by its condition's index, so only that condition reads the same value.
    const readKey = JSON.stringify([LeftOperand, LeftOperandFieldName, condition.aggregate ? condition.index : null]);
    let reader = readerSlots.get(readKey);
    if (reader === undefined) {
      reader = readers.push(condition.read) - 1;
      readerSlots.set(readKey, reader);
    }
    const testKey = JSON.stringify([reader, Operator, RightOperand]);
    let slot = testSlots.get(testKey);
    if (slot === undefined) {
      slot = tests.push(condition.test) - 1;
      testReader.push(reader);
      testSlots.set(testKey, slot);
    }
    return slot;
  };
  const plans = rules.map((rule) => ({
    rule,
    always: rule.inTime === ALWAYS,
    slots: Int32Array.from(rule.conditions, slotOf),
    or: Uint8Array.from(rule.conditions, (condition) => (condition.condition.Type === 1 ? 1 : 0)),
  }));
  // Reused from packet to packet (the evaluator runs to its end without yielding), the answer too:
  // it holds until the next packet is evaluated, and most packets match nothing.
  const values: unknown[] = new Array<unknown>(readers.length);
  const answers = new Uint8Array(tests.length); // 0 not tested yet, 1 held, 2 did not
  const matched: CompiledRule[] = [];
  return (subject) => {
    for (let reader = 0; reader < readers.length; reader++) values[reader] = readers[reader]!(subject);
    answers.fill(0);
    matched.length = 0;
    for (const { rule, always, slots, or } of plans) {
      if (!always && !rule.inTime(subject.timestamp)) continue;
      let result = false;
      for (let position = 0; position < slots.length; position++) {
        // Or keeps a true result and And a false one, without testing the condition.
        if (position > 0 && (or[position] === 1) === result) continue;
        const slot = slots[position]!;
        let answer = answers[slot]!;
        if (answer === 0) answers[slot] = answer = tests[slot]!(values[testReader[slot]!]) ? 1 : 2;
        result = answer === 1;
      }
      if (result) matched.push(rule);
    }
    return matched;
  };
}

/**
 * Whether a rule's conditions hold over an entity's newest packets (History): a condition with an
 * occurrence pattern N/M holds when it held for at least N of the newest M; one without, when it
 * holds for the newest. `newestFirst` holds at least one packet.
 */
export function holdsOverHistory(rule: CompiledRule, newestFirst: readonly PacketSubject[]): boolean {
  return joinConditions(rule.conditions, (condition) => {
    if (!condition.occurrence) return condition.test(condition.read(newestFirst[0]!));
    let held = 0;
    for (const subject of newestFirst.slice(0, condition.occurrence.m))
      if (condition.test(condition.read(subject))) held += 1;
    return held >= condition.occurrence.n;
  });
}

/** Why the rule matched a subject: each condition that held and the value it saw. */
export function reasonFor(rule: CompiledRule, subject: Subject): MatchReason {
  return {
    conditions: rule.conditions.flatMap((condition) => {
      const seen = condition.read(subject);
      if (!condition.test(seen)) return [];
      return [
        {
          index: condition.index,
          leftOperand: condition.leftOperandLabel,
          operator: condition.operatorLabel,
          rightOperand: condition.condition.RightOperand,
          seen: seen === undefined || seen === null ? null : asText(seen).slice(0, 500),
        },
      ];
    }),
    timestamp: subject.timestamp.toISOString(),
  };
}

const BLOCK_NAME = fieldOf('BlockName');

/** A subject's label in lists: a packet's Properties.BlockName (spec 002 §3) or its entity; a work unit's title. */
export function labelOf(subject: Subject): string | null {
  if (subject.kind === 'workUnit') return subject.title;
  const name = BLOCK_NAME(MESSAGE_FIELDS.Properties(subject.message));
  return typeof name === 'string' && name !== '' ? name.slice(0, 200) : null;
}
