import { toNestErrors } from '@hookform/resolvers';
import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  CONDITION_TYPES,
  MONITORING_LIMITS,
  OPERATORS,
  RULE_TYPES,
  TENANT_LEFT_OPERAND,
  VALUELESS_OPERATORS,
} from '@cfs/contracts/monitoring';
import {
  canCloseOnRecovery,
  ruleInputSchema,
  tenantCondition,
  type RuleClosesOn,
  type RuleInput,
  type RuleValues,
} from '@cfs/contracts/rules';
import { schemaFieldErrors } from '../../components/form-resolver';
import type { Rule } from './api';

/**
 * The rule editor's values: the API's rule (spec 002 §3) with its time limitations as fields
 * (the API carries them as JSON text) and each action's parameters as a map. `toRuleInput` turns
 * them into what PUT/POST v1/rules take; `ruleFormResolver` checks that with `ruleInputSchema`,
 * the server's own schema, and puts each message on the field it belongs to.
 */
export interface ConditionValues {
  Type: number;
  LeftOperand: number | null;
  LeftOperandFieldName: string | null;
  Operator: number | null;
  RightOperand: string | null;
  OccurrencePattern: string | null;
}

export interface ActionValues {
  ActionDefinitionId: string;
  Parameters: Record<string, string>;
}

export interface TimeValues {
  TimeZoneId: string;
  DaysOfWeek: number[];
  DaysOfMonth: string;
  DailyStartTime: string | null;
  DailyEndTime: string | null;
  StartRange: string | null;
  EndRange: string | null;
}

export interface RuleFormValues {
  name: string;
  description: string;
  ruleTypeId: number | null;
  enabled: boolean;
  tenantId: string | null;
  subscriptionId: string | null;
  matchLifetime: string;
  useSlidingExpiration: boolean;
  /** The Time Limitations switch: off sends timeConditions as null (spec 002 §5). */
  timeLimited: boolean;
  time: TimeValues;
  conditions: ConditionValues[];
  matchActions: ActionValues[];
  expirationActions: ActionValues[];
  /** How matches close (shown for the rules that can close on recovery; others close on expiry). */
  closesOn: RuleClosesOn;
  /** HH:mm:ss, or empty for none. */
  pendingFor: string;
  /** The Own Recovery Conditions switch: off sends recoveryConditions as null (the conditions no longer holding). */
  ownRecovery: boolean;
  recoveryConditions: ConditionValues[];
}

export const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Days of week default to all, the zone to America/New_York (spec 002 §5). */
export const emptyTime = (): TimeValues => ({
  TimeZoneId: MONITORING_LIMITS.defaultTimeZone,
  DaysOfWeek: [...ALL_DAYS],
  DaysOfMonth: '',
  DailyStartTime: null,
  DailyEndTime: null,
  StartRange: null,
  EndRange: null,
});

export const emptyCondition = (): ConditionValues => ({
  Type: CONDITION_TYPES.And,
  LeftOperand: null,
  LeftOperandFieldName: null,
  Operator: OPERATORS.Equals,
  RightOperand: '',
  OccurrencePattern: null,
});

export const isTenantCondition = (condition: Pick<ConditionValues, 'LeftOperand'>): boolean =>
  condition.LeftOperand === TENANT_LEFT_OPERAND;

/**
 * The conditions with the tenant's fixed first condition (spec 002 §5): added when a tenant is
 * chosen, replaced when it changes, removed when it is cleared.
 */
export function withTenantCondition(
  conditions: readonly ConditionValues[],
  tenantId: string | null,
): ConditionValues[] {
  const others = conditions.filter((condition) => !isTenantCondition(condition));
  return tenantId ? [tenantCondition(tenantId), ...others] : others;
}

function timeOf(text: string | null): TimeValues | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<Record<keyof TimeValues, unknown>>;
    const time = emptyTime();
    return {
      TimeZoneId: typeof parsed.TimeZoneId === 'string' ? parsed.TimeZoneId : time.TimeZoneId,
      DaysOfWeek: Array.isArray(parsed.DaysOfWeek)
        ? parsed.DaysOfWeek.filter((day): day is number => typeof day === 'number')
        : time.DaysOfWeek,
      DaysOfMonth: typeof parsed.DaysOfMonth === 'string' ? parsed.DaysOfMonth : '',
      DailyStartTime: typeof parsed.DailyStartTime === 'string' ? parsed.DailyStartTime : null,
      DailyEndTime: typeof parsed.DailyEndTime === 'string' ? parsed.DailyEndTime : null,
      StartRange: typeof parsed.StartRange === 'string' ? parsed.StartRange : null,
      EndRange: typeof parsed.EndRange === 'string' ? parsed.EndRange : null,
    };
  } catch {
    return null;
  }
}

const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

/** A saved rule as the form edits it; a new one is enabled with a 5-minute lifetime (spec 002 §4) and the page's tenant. */
export function ruleFormValues(rule: Rule | undefined, tenantId: string | null): RuleFormValues {
  if (!rule) {
    return {
      name: '',
      description: '',
      ruleTypeId: null,
      enabled: true,
      tenantId,
      subscriptionId: null,
      matchLifetime: MONITORING_LIMITS.defaultRuleLifetime,
      useSlidingExpiration: false,
      timeLimited: false,
      time: emptyTime(),
      conditions: withTenantCondition([], tenantId),
      matchActions: [],
      expirationActions: [],
      closesOn: 'recovery',
      pendingFor: '',
      ownRecovery: false,
      recoveryConditions: [emptyCondition()],
    };
  }
  const time = timeOf(rule.timeConditions);
  const actions = (list: readonly Record<string, unknown>[]): ActionValues[] =>
    list.map((action) => ({
      ActionDefinitionId: text(action.ActionDefinitionId) ?? '',
      Parameters: Object.fromEntries(
        Object.entries((action.Parameters as Record<string, unknown> | undefined) ?? {}).map(([key, value]) => [
          key,
          text(value) ?? '',
        ]),
      ),
    }));
  return {
    name: rule.name,
    description: rule.description ?? '',
    ruleTypeId: rule.ruleTypeId,
    enabled: rule.enabled,
    tenantId: rule.tenantId,
    subscriptionId: rule.subscriptionId,
    matchLifetime: rule.matchLifetime,
    useSlidingExpiration: rule.useSlidingExpiration,
    timeLimited: time !== null,
    time: time ?? emptyTime(),
    conditions: rule.conditions.map(conditionValues),
    matchActions: actions(rule.matchActions),
    expirationActions: actions(rule.expirationActions),
    closesOn: rule.closesOn,
    pendingFor: rule.pendingFor ?? '',
    ownRecovery: rule.recoveryConditions !== null,
    recoveryConditions: rule.recoveryConditions?.map(conditionValues) ?? [emptyCondition()],
  };
}

const conditionValues = (condition: Record<string, unknown>): ConditionValues => ({
  Type: typeof condition.Type === 'number' ? condition.Type : CONDITION_TYPES.And,
  LeftOperand: typeof condition.LeftOperand === 'number' ? condition.LeftOperand : null,
  LeftOperandFieldName: text(condition.LeftOperandFieldName),
  Operator: typeof condition.Operator === 'number' ? condition.Operator : null,
  RightOperand: text(condition.RightOperand),
  OccurrencePattern: text(condition.OccurrencePattern),
});

/** Whether the form's rule can close on recovery (an Ingestion rule without occurrence patterns). */
export const recoverable = (values: Pick<RuleFormValues, 'ruleTypeId' | 'conditions'>): boolean =>
  values.ruleTypeId !== null && canCloseOnRecovery({ ruleTypeId: values.ruleTypeId, conditions: values.conditions });

/**
 * An Ingestion rule set to close on recovery whose conditions now carry an occurrence pattern: it
 * is judged over stored packets then, its matches close when their lifetime runs out, and saving
 * drops its Pending For and recovery conditions. The editor says so rather than dropping them unseen.
 */
export const recoveryDropped = (values: Pick<RuleFormValues, 'ruleTypeId' | 'conditions' | 'closesOn'>): boolean =>
  values.ruleTypeId === RULE_TYPES.Ingestion && values.closesOn === 'recovery' && !recoverable(values);

const orNull = (value: string | null | undefined) =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

/** What the API takes. Value is dropped for IsEmpty/IsNotEmpty, and timeConditions is null when the switch is off. */
export function toRuleInput(values: RuleFormValues): RuleInput {
  const time = values.time;
  const recovers = recoverable(values) && values.closesOn === 'recovery';
  return {
    name: values.name,
    description: orNull(values.description),
    ruleTypeId: values.ruleTypeId ?? (undefined as unknown as number),
    enabled: values.enabled,
    tenantId: values.tenantId,
    subscriptionId: values.subscriptionId,
    matchLifetime: values.matchLifetime,
    useSlidingExpiration: values.useSlidingExpiration,
    timeConditions: values.timeLimited
      ? JSON.stringify({
          TimeZoneId: time.TimeZoneId,
          DaysOfWeek: [...time.DaysOfWeek].sort(),
          DaysOfMonth: orNull(time.DaysOfMonth),
          DailyStartTime: orNull(time.DailyStartTime),
          DailyEndTime: orNull(time.DailyEndTime),
          StartRange: time.StartRange,
          EndRange: time.EndRange,
        })
      : null,
    conditions: values.conditions.map(toCondition),
    matchActions: values.matchActions.map(toAction),
    expirationActions: values.expirationActions.map(toAction),
    // A rule that cannot close on recovery closes on expiry, whatever was chosen before its type changed.
    closesOn: recovers ? 'recovery' : 'expiry',
    pendingFor: recovers ? orNull(values.pendingFor) : null,
    recoveryConditions: recovers && values.ownRecovery ? values.recoveryConditions.map(toCondition) : null,
  };
}

const toCondition = (condition: ConditionValues) => ({
  Type: condition.Type as 0 | 1,
  LeftOperand: condition.LeftOperand ?? (undefined as unknown as number),
  LeftOperandFieldName: orNull(condition.LeftOperandFieldName),
  Operator: condition.Operator ?? (undefined as unknown as number),
  RightOperand:
    condition.Operator !== null && (VALUELESS_OPERATORS as number[]).includes(condition.Operator)
      ? null
      : condition.RightOperand,
  OccurrencePattern: orNull(condition.OccurrencePattern),
});

const toAction = (action: ActionValues) => ({
  ActionDefinitionId: action.ActionDefinitionId,
  // A parameter left empty is not sent (a field of the action's shows nothing until it is filled).
  Parameters: Object.fromEntries(
    Object.entries(action.Parameters as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  ),
});

/** The schema's paths for the time limitations (`timeConditions…`) are the form's `time…` fields and its switch. */
export function formPathOf(path: string): string {
  if (path === 'timeConditions') return 'timeLimited';
  if (path.startsWith('timeConditions.')) return `time.${path.slice('timeConditions.'.length)}`;
  return path;
}

/** The form's resolver: `ruleInputSchema` over `toRuleInput(values)`, each first message on its field. */
export const ruleFormResolver: Resolver<RuleFormValues, unknown, RuleValues> = async (values, _context, options) => {
  const result = await ruleInputSchema.safeParseAsync(toRuleInput(values));
  if (result.success) return { values: result.data, errors: {} };
  const errors = Object.fromEntries(
    Object.entries(schemaFieldErrors(result.error.issues)).map(([path, error]) => [formPathOf(path), error]),
  );
  return { values: {}, errors: toNestErrors(errors, options) as FieldErrors<RuleFormValues> };
};

/** The Details, Conditions and Actions tabs, and the form paths each holds (for the tab's error mark). */
export const RULE_TABS = ['details', 'conditions', 'actions'] as const;
export type RuleTab = (typeof RULE_TABS)[number];
export function tabOf(path: string): RuleTab {
  if (path.startsWith('conditions') || path.startsWith('recoveryConditions')) return 'conditions';
  if (path.startsWith('matchActions') || path.startsWith('expirationActions')) return 'actions';
  return 'details';
}
