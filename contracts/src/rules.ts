import { z } from 'zod';
import { NOTIFICATION_GROUP_BY } from './notification-policy.js';
import { formatInterval, intervalSeconds, INTERVAL_PATTERN } from './device-operations.js';
import { guid, isKnownTimeZone, requiredText } from './fields.js';
import {
  CONDITION_TYPES,
  LEFT_OPERANDS,
  LEFT_OPERANDS_BY_RULE_TYPE,
  MONITORING_LIMITS,
  OCCURRENCE_PATTERN,
  OPERATOR_IDS,
  OPERATORS,
  RULE_TYPE_IDS,
  RULE_TYPES,
  TENANT_LEFT_OPERAND,
  VALUELESS_OPERATORS,
  leftOperandById,
} from './monitoring.js';

/** Rules and rule matches (spec 002 §3 Rule, Condition, RuleMatch; §4; §5 "Rule"; §8; §9). */
export const RULE_MESSAGES = {
  nameRequired: 'Please enter a rule name',
  ruleTypeRequired: 'Please select a Rule Type',
  lifetimeRequired: 'Lifetime is required',
  lifetimeFormat: 'Lifetime must be in the format HH:mm:ss',
  /** Spec 002 §5 "helper text 'Must be at least {n} {unit}.'" with the minimum of §9. */
  lifetimeMinimum: 'Must be at least 5 minutes.',
  conditionsRequired: 'Condtions are required for rules.',
  maintenanceNeedsTime: 'Time limitations are required for Maintenance rules.',
  maintenanceNeedsDay: 'At least one day should be selected when using a Maintenance rule.',
  timeZoneRequired: 'A timezone is required.',
  invalidDate: 'Please enter a valid date',
  saveFailed: 'Unable to save rule. Please try again.',
  deleted: 'Rule deleted successfully.',
  deleteFailed: 'Unable to delete rule. Please try again.',
  removeActionConfirm: 'Are you sure you want to remove this rule action?',
  noRuleMatches: 'No Rule Matches Found.',
  // Not in the spec's catalogue: the server's own texts for input a form would not send.
  leftOperandInvalid: 'Please choose a left operand.',
  leftOperandNotForType: 'This left operand cannot be used with this rule type.',
  fieldNameRequired: 'Please enter the field name.',
  operatorInvalid: 'Please choose an operator.',
  valueRequired: 'Please enter a value.',
  numberRequired: 'Please enter a number.',
  patternInvalid: 'This is not a regular expression the rule engine can run.',
  occurrenceInvalid: 'Please choose an occurrence pattern.',
  timeZoneUnknown: 'This time zone is not known.',
  dayOfMonthInvalid: 'Days of month are numbers from 1 to 31, separated by commas.',
  dailyTimeInvalid: 'Please enter a time as HH:mm:ss.',
  dateRangeOrder: 'The end of the date range must be after its start.',
  actionRequired: 'Please choose an action.',
  actionNotForRules: 'This action cannot be used by rules.',
  tenantConditionMismatch: "The tenant condition must name the rule's tenant.",
  conditionsTooMany: `A rule holds at most ${MONITORING_LIMITS.maxConditions} conditions.`,
  testNotRunnable: 'This rule cannot be run as it stands: check its conditions and time limitations.',
  testTenantNotAllowed: 'You cannot test a rule of this tenant.',
  actionsTooMany: `A rule holds at most ${MONITORING_LIMITS.maxRuleActions} actions of each kind.`,
  recoveryOnlyIngestion: 'Only Ingestion rules without occurrence patterns can close on recovery.',
  pendingFormat: 'Pending For must be in the format HH:mm:ss',
  pendingNeedsRecovery: 'A pending period applies to rules that close on recovery.',
  recoveryConditionsNeedRecovery: 'Recovery conditions apply to rules that close on recovery.',
  recoveryTenantCondition: 'Recovery conditions read the matched subject; they do not name a tenant.',
} as const;

/**
 * How a rule's matches close (docs/features/rules.md "A match's life"):
 * - `expiry`: when the lifetime runs out (sliding or not), whatever the packets say since;
 * - `recovery`: while the conditions hold the match stays open; it closes when the recovery
 *   conditions hold (without them: when the conditions no longer hold), or as "no data" when the
 *   subject sends nothing for the lifetime. A pending period makes the conditions hold that long
 *   before a match opens.
 * Rules written before keep `expiry`; a new Ingestion rule closes on recovery unless it says otherwise.
 */
export const RULE_CLOSES_ON = ['expiry', 'recovery'] as const;
export type RuleClosesOn = (typeof RULE_CLOSES_ON)[number];
export const RULE_CLOSES_ON_LABELS: Record<RuleClosesOn, string> = {
  expiry: 'Its lifetime runs out',
  recovery: 'The problem is over (recovery)',
};

/** How a closed match ended: its lifetime ran out, it recovered, or its subject sent nothing for the lifetime. */
export const MATCH_OUTCOMES = ['expired', 'recovered', 'noData'] as const;
export type MatchOutcome = (typeof MATCH_OUTCOMES)[number];
export const MATCH_OUTCOME_LABELS: Record<MatchOutcome, string> = {
  expired: 'Expired',
  recovered: 'Recovered',
  noData: 'No data',
};

export const ruleTypeIdSchema = z
  .number({ error: RULE_MESSAGES.ruleTypeRequired })
  .refine((value) => (RULE_TYPE_IDS as number[]).includes(value), RULE_MESSAGES.ruleTypeRequired);

/**
 * One condition (spec 002 §3, PascalCase as stored in the rule's JSON list). Conditions are read
 * left to right: each joins the result so far with its Type (And/Or), with no precedence, as the
 * editor lists them. RightOperand is text; numeric comparisons read both sides as numbers.
 */
export const conditionSchema = z
  .object({
    Type: z.union([z.literal(CONDITION_TYPES.And), z.literal(CONDITION_TYPES.Or)]).default(CONDITION_TYPES.And),
    LeftOperand: z
      .number({ error: RULE_MESSAGES.leftOperandInvalid })
      .int()
      .refine((id) => leftOperandById(id) !== undefined, RULE_MESSAGES.leftOperandInvalid),
    LeftOperandFieldName: z.string().trim().max(200).nullable().default(null),
    Operator: z
      .number({ error: RULE_MESSAGES.operatorInvalid })
      .refine((id) => (OPERATOR_IDS as number[]).includes(id), RULE_MESSAGES.operatorInvalid),
    RightOperand: z.string().max(4000).nullable().default(null),
    OccurrencePattern: z.string().regex(OCCURRENCE_PATTERN, RULE_MESSAGES.occurrenceInvalid).nullable().default(null),
  })
  .superRefine((condition, context) => {
    const operand = leftOperandById(condition.LeftOperand);
    if (operand?.field && !condition.LeftOperandFieldName)
      context.addIssue({ code: 'custom', path: ['LeftOperandFieldName'], message: RULE_MESSAGES.fieldNameRequired });
    const valueless = (VALUELESS_OPERATORS as number[]).includes(condition.Operator);
    if (!valueless && (condition.RightOperand === null || condition.RightOperand === ''))
      context.addIssue({ code: 'custom', path: ['RightOperand'], message: RULE_MESSAGES.valueRequired });
    if (!valueless && condition.RightOperand && (operand?.type === 'number' || operand?.type === 'timespan')) {
      const numeric =
        operand.type === 'timespan' ? intervalSeconds(condition.RightOperand) : Number(condition.RightOperand.trim());
      const ordered = [
        OPERATORS.GreaterThan,
        OPERATORS.LessThan,
        OPERATORS.GreaterThanOrEqual,
        OPERATORS.LessThanOrEqual,
      ].includes(condition.Operator as 3);
      if (ordered && (numeric === undefined || !Number.isFinite(numeric)))
        context.addIssue({
          code: 'custom',
          path: ['RightOperand'],
          message: operand.type === 'timespan' ? RULE_MESSAGES.dailyTimeInvalid : RULE_MESSAGES.numberRequired,
        });
    }
    if (
      (condition.Operator === OPERATORS.Matches || condition.Operator === OPERATORS.NotMatches) &&
      (condition.RightOperand?.length ?? 0) > MONITORING_LIMITS.maxPatternLength
    ) {
      context.addIssue({ code: 'custom', path: ['RightOperand'], message: RULE_MESSAGES.patternInvalid });
    }
  });
export type Condition = z.output<typeof conditionSchema>;
export type ConditionInput = z.input<typeof conditionSchema>;

const DAILY_TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const dailyTime = z.string().regex(DAILY_TIME, RULE_MESSAGES.dailyTimeInvalid).nullable().default(null);
const rangeDate = z
  .string({ error: RULE_MESSAGES.invalidDate })
  .refine((text) => !Number.isNaN(Date.parse(text)), RULE_MESSAGES.invalidDate)
  .nullable()
  .default(null);

/**
 * Time limitations (spec 002 §3 timeConditions): when the rule may match at all (a Maintenance
 * rule: when its window is open). Every part is optional except the time zone; together they must
 * all hold. DaysOfWeek empty means every day (§5); DailyEndTime before DailyStartTime spans
 * midnight.
 */
export const timeConditionsSchema = z
  .object({
    TimeZoneId: z
      .string({ error: RULE_MESSAGES.timeZoneRequired })
      .trim()
      .min(1, { error: RULE_MESSAGES.timeZoneRequired, abort: true })
      .refine(isKnownTimeZone, RULE_MESSAGES.timeZoneUnknown),
    StartRange: rangeDate,
    EndRange: rangeDate,
    DaysOfWeek: z.array(z.number().int().min(0).max(6)).max(7).default([]),
    DaysOfMonth: z
      .string()
      .trim()
      .refine(
        (text) => text === '' || text.split(',').every((part) => /^\s*([1-9]|[12]\d|3[01])\s*$/.test(part)),
        RULE_MESSAGES.dayOfMonthInvalid,
      )
      .nullable()
      .default(null),
    DailyStartTime: dailyTime,
    DailyEndTime: dailyTime,
  })
  .superRefine((time, context) => {
    if (time.StartRange && time.EndRange && Date.parse(time.EndRange) <= Date.parse(time.StartRange))
      context.addIssue({ code: 'custom', path: ['EndRange'], message: RULE_MESSAGES.dateRangeOrder });
  });
export type TimeConditions = z.output<typeof timeConditionsSchema>;

/** A match or expiration action of a rule (spec 002 §3 rule action). */
export const ruleActionSchema = z.object({
  ActionDefinitionId: guid(RULE_MESSAGES.actionRequired),
  Parameters: z.record(z.string().max(200), z.string().max(4000)).default({}),
});
export type RuleAction = z.output<typeof ruleActionSchema>;

export const lifetimeSchema = z
  .string({ error: RULE_MESSAGES.lifetimeRequired })
  .trim()
  // One message at a time: an empty lifetime is not also badly formatted and too short.
  .min(1, { error: RULE_MESSAGES.lifetimeRequired, abort: true })
  .regex(INTERVAL_PATTERN, { error: RULE_MESSAGES.lifetimeFormat, abort: true })
  .refine(
    (text) => (intervalSeconds(text) ?? 0) >= MONITORING_LIMITS.minimumRuleLifetimeSeconds,
    RULE_MESSAGES.lifetimeMinimum,
  );

/**
 * A rule as created or updated (PUT v1/rules, POST v1/rules/{ruleId}). timeConditions travels as
 * JSON text (spec 002 §3) or null; the server reads and checks it with `timeConditionsSchema`.
 */
export const ruleInputSchema = z
  .object({
    name: requiredText(RULE_MESSAGES.nameRequired, 200),
    description: z
      .string()
      .trim()
      .max(2000)
      .nullable()
      .optional()
      .transform((value) => value || null),
    ruleTypeId: ruleTypeIdSchema,
    enabled: z.boolean().default(true),
    tenantId: guid()
      .nullable()
      .optional()
      .transform((value) => value ?? null),
    subscriptionId: guid()
      .nullable()
      .optional()
      .transform((value) => value ?? null),
    matchLifetime: lifetimeSchema,
    useSlidingExpiration: z.boolean().default(false),
    timeConditions: z
      .string()
      .max(10_000)
      .nullable()
      .optional()
      .transform((value) => (value ? value : null)),
    conditions: z
      .array(conditionSchema, { error: RULE_MESSAGES.conditionsRequired })
      .min(1, RULE_MESSAGES.conditionsRequired)
      .max(MONITORING_LIMITS.maxConditions, RULE_MESSAGES.conditionsTooMany),
    matchActions: z
      .array(ruleActionSchema)
      .max(MONITORING_LIMITS.maxRuleActions, RULE_MESSAGES.actionsTooMany)
      .default([]),
    expirationActions: z
      .array(ruleActionSchema)
      .max(MONITORING_LIMITS.maxRuleActions, RULE_MESSAGES.actionsTooMany)
      .default([]),
    /** Left out: a new rule takes its type's default (`defaultClosesOn`), a changed one keeps its own. */
    closesOn: z.enum(RULE_CLOSES_ON).optional(),
    /** HH:mm:ss the conditions must hold before a match opens; null or 00:00:00 for none. Left out: kept. */
    pendingFor: z.string().trim().regex(INTERVAL_PATTERN, RULE_MESSAGES.pendingFormat).nullable().optional(),
    /** What ends a match that closes on recovery; null: its conditions no longer holding. Left out: kept. */
    recoveryConditions: z
      .array(conditionSchema)
      .min(1, RULE_MESSAGES.conditionsRequired)
      .max(MONITORING_LIMITS.maxConditions, RULE_MESSAGES.conditionsTooMany)
      .nullable()
      .optional(),
  })
  .superRefine((rule, context) => {
    const recoverable = canCloseOnRecovery(rule);
    if (rule.closesOn === 'recovery' && !recoverable)
      context.addIssue({ code: 'custom', path: ['closesOn'], message: RULE_MESSAGES.recoveryOnlyIngestion });
    const closesOn = rule.closesOn ?? (recoverable ? 'recovery' : 'expiry');
    if (closesOn !== 'recovery' && rule.pendingFor && (intervalSeconds(rule.pendingFor) ?? 0) > 0)
      context.addIssue({ code: 'custom', path: ['pendingFor'], message: RULE_MESSAGES.pendingNeedsRecovery });
    if (closesOn !== 'recovery' && rule.recoveryConditions)
      context.addIssue({
        code: 'custom',
        path: ['recoveryConditions'],
        message: RULE_MESSAGES.recoveryConditionsNeedRecovery,
      });
    rule.recoveryConditions?.forEach((condition, index) => {
      if (
        condition.LeftOperand === TENANT_LEFT_OPERAND ||
        !LEFT_OPERAND_IDS_BY_TYPE[RULE_TYPES.Ingestion]?.includes(condition.LeftOperand)
      )
        context.addIssue({
          code: 'custom',
          path: ['recoveryConditions', index, 'LeftOperand'],
          message:
            condition.LeftOperand === TENANT_LEFT_OPERAND
              ? RULE_MESSAGES.recoveryTenantCondition
              : RULE_MESSAGES.leftOperandNotForType,
        });
      if (condition.OccurrencePattern)
        context.addIssue({
          code: 'custom',
          path: ['recoveryConditions', index, 'OccurrencePattern'],
          message: RULE_MESSAGES.recoveryOnlyIngestion,
        });
    });
    let time: TimeConditions | null = null;
    if (rule.timeConditions) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(rule.timeConditions);
      } catch {
        parsed = undefined;
      }
      const checked = timeConditionsSchema.safeParse(parsed ?? {});
      if (checked.success) time = checked.data;
      else
        for (const issue of checked.error.issues)
          context.addIssue({
            code: 'custom',
            path: ['timeConditions', ...issue.path.map(String)],
            message: issue.message,
          });
    }
    if (rule.ruleTypeId === RULE_TYPES.Maintenance) {
      if (!rule.timeConditions)
        context.addIssue({ code: 'custom', path: ['timeConditions'], message: RULE_MESSAGES.maintenanceNeedsTime });
      else if (time && time.DaysOfWeek.length === 0)
        context.addIssue({
          code: 'custom',
          path: ['timeConditions', 'DaysOfWeek'],
          message: RULE_MESSAGES.maintenanceNeedsDay,
        });
    }
    rule.conditions.forEach((condition, index) => {
      if (
        !LEFT_OPERAND_IDS_BY_TYPE[rule.ruleTypeId as keyof typeof LEFT_OPERAND_IDS_BY_TYPE]?.includes(
          condition.LeftOperand,
        ) &&
        condition.LeftOperand !== TENANT_LEFT_OPERAND
      ) {
        context.addIssue({
          code: 'custom',
          path: ['conditions', index, 'LeftOperand'],
          message: RULE_MESSAGES.leftOperandNotForType,
        });
      }
      if (
        condition.LeftOperand === TENANT_LEFT_OPERAND &&
        rule.tenantId &&
        condition.RightOperand?.toLowerCase() !== rule.tenantId
      ) {
        context.addIssue({
          code: 'custom',
          path: ['conditions', index, 'RightOperand'],
          message: RULE_MESSAGES.tenantConditionMismatch,
        });
      }
    });
  });
export type RuleInput = z.input<typeof ruleInputSchema>;

/**
 * Whether a rule of this type and these conditions can close on recovery: an Ingestion rule
 * decided packet by packet (no occurrence pattern), whose subject's latest packet tells whether
 * the problem is over.
 */
export function canCloseOnRecovery(rule: {
  ruleTypeId: number;
  conditions: readonly { OccurrencePattern?: string | null }[];
}): boolean {
  return rule.ruleTypeId === RULE_TYPES.Ingestion && rule.conditions.every((condition) => !condition.OccurrencePattern);
}

/** How a new rule closes when its input does not say: on recovery where it can. */
export function defaultClosesOn(rule: Parameters<typeof canCloseOnRecovery>[0]): RuleClosesOn {
  return canCloseOnRecovery(rule) ? 'recovery' : 'expiry';
}
export type RuleValues = z.output<typeof ruleInputSchema>;

const LEFT_OPERAND_IDS_BY_TYPE = Object.fromEntries(
  Object.entries(LEFT_OPERANDS_BY_RULE_TYPE).map(([type, keys]) => [
    type,
    keys.map((key) => LEFT_OPERANDS[key].id as number),
  ]),
) as Record<number, number[]>;

/** The fixed first condition a rule with a tenant carries (spec 002 §5). */
export function tenantCondition(tenantId: string): Condition {
  return {
    Type: CONDITION_TYPES.And,
    LeftOperand: TENANT_LEFT_OPERAND,
    LeftOperandFieldName: null,
    Operator: OPERATORS.Equals,
    RightOperand: tenantId,
    OccurrencePattern: null,
  };
}

export const ruleSchema = z.object({
  ruleId: z.uuid(),
  enabled: z.boolean(),
  name: z.string(),
  description: z.string().nullable(),
  ruleTypeId: z.number(),
  tenantId: z.uuid().nullable(),
  subscriptionId: z.uuid().nullable(),
  matchLifetime: z.string(),
  useSlidingExpiration: z.boolean(),
  timeConditions: z.string().nullable(),
  conditions: z.array(z.looseObject({})),
  matchActions: z.array(z.looseObject({})),
  expirationActions: z.array(z.looseObject({})),
  closesOn: z.enum(RULE_CLOSES_ON),
  /** HH:mm:ss, or null for none. */
  pendingFor: z.string().nullable(),
  recoveryConditions: z.array(z.looseObject({})).nullable(),
  /** The change request whose approved planned outage opened this Maintenance rule, if any. */
  changeWorkUnitId: z.number().int().nullable().optional(),
  created: z.date(),
  createdBy: z.string().nullable(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
});
export type Rule = z.infer<typeof ruleSchema>;

/**
 * Why a match fired: each condition that held and the value it saw (the rule-matches drawer and
 * the block's Rule Matches tab show it).
 */
export const matchReasonSchema = z.object({
  conditions: z.array(
    z.object({
      index: z.number(),
      leftOperand: z.string(),
      operator: z.string(),
      rightOperand: z.string().nullable(),
      seen: z.string().nullable(),
    }),
  ),
  /** The packet (or work unit event) that matched last. */
  timestamp: z.string().nullable(),
});
export type MatchReason = z.infer<typeof matchReasonSchema>;

/** A rule match (spec 002 §3 RuleMatch; 001 "Rule match"). Active while expires is in the future. */
export const ruleMatchSchema = z.object({
  ruleMatchId: z.uuid(),
  ruleId: z.uuid(),
  tenantId: z.uuid(),
  label: z.string().nullable(),
  subjectId: z.string(),
  rulePacket: z.looseObject({}).nullable(),
  matchCount: z.number(),
  firstMatch: z.date(),
  lastMatch: z.date(),
  expires: z.date(),
  inMaintenance: z.boolean(),
  completionProcessed: z.boolean(),
  /** Its conditions hold, not yet for the rule's pending period: no action has run. */
  pending: z.boolean(),
  /** It closes on recovery (its rule's choice when it opened): `expires` is then when it closes for lack of data. */
  recovers: z.boolean(),
  /** How it ended, once closed. */
  outcome: z.enum(MATCH_OUTCOMES).nullable(),
  /** When someone took it on (POST v1/rulematches/acknowledge), who, and their note; it ends with the match. */
  acknowledged: z.date().nullable(),
  acknowledgedBy: z.string().nullable(),
  acknowledgement: z.string().nullable(),
  /** Until when a silence covers it now (none: not silenced): its actions are suppressed meanwhile. */
  silencedUntil: z.date().nullable(),
  reason: matchReasonSchema.nullable(),
  created: z.date(),
  modified: z.date(),
});

export { formatInterval as formatLifetime, intervalSeconds as lifetimeSeconds };

/** The windows a rule can be tried against before it is saved (the editor's Test). */
export const RULE_TEST_WINDOWS = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;
export type RuleTestWindow = keyof typeof RULE_TEST_WINDOWS;
export const RULE_TEST_WINDOW_LABELS: Record<RuleTestWindow, string> = {
  hour: 'Last hour',
  day: 'Last day',
  week: 'Last 7 days',
};

/** POST v1/rules/test: the rule as it stands in the form (unsaved), and the window to try it on. */
export const ruleTestRequestSchema = z.object({
  rule: ruleInputSchema,
  window: z.enum(['hour', 'day', 'week']).default('day'),
});
export type RuleTestRequest = z.input<typeof ruleTestRequestSchema>;

/**
 * What the rule would have done over the window, without creating a match or firing an action:
 * each subject it would have matched (first and last match, how often, when its matches would
 * have expired) and how many times each action would have run.
 */
export const ruleTestResultSchema = z.object({
  from: z.string(),
  to: z.string(),
  packetsExamined: z.number(),
  /** The window held more packets than a test reads; the figures cover the ones it read. */
  truncated: z.boolean(),
  elapsedMs: z.number(),
  subjects: z.array(
    z.object({
      subjectId: z.string(),
      label: z.string().nullable(),
      firstMatch: z.string(),
      lastMatch: z.string(),
      matchCount: z.number(),
      /** When each of its matches would have closed (the expiration actions run then). */
      expirations: z.array(z.string()),
      /** How each of them closed, in the same order. */
      outcomes: z.array(z.enum(MATCH_OUTCOMES)),
    }),
  ),
  actions: z.array(
    z.object({
      phase: z.enum(['match', 'expiration']),
      actionDefinitionId: z.string(),
      name: z.string(),
      /** A notifying match action's runs are the notifications below: its groups and repeats. */
      runs: z.number(),
    }),
  ),
  /**
   * What the tenant's notification policy would have made of the matches, for the rule's notifying
   * match actions (Send Email, HTTP calls): how many notifications the matches that opened would have
   * sent (fewer when grouped) and how many repeats (none acknowledged). Null: the rule has no
   * notifying match action, or no tenant.
   */
  notifications: z
    .object({
      groupBy: z.enum(NOTIFICATION_GROUP_BY).nullable(),
      groupWait: z.string(),
      repeatEvery: z.string().nullable(),
      matches: z.number(),
      sent: z.number(),
      repeats: z.number(),
    })
    .nullable(),
});
export type RuleTestResult = z.infer<typeof ruleTestResultSchema>;
