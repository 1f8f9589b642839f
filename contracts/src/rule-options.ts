import { z } from 'zod';
import {
  LEFT_OPERANDS,
  OCCURRENCE_OPTIONS,
  OPERATOR_LABELS,
  OPERATORS,
  RULE_ACTION_TYPES,
  RULE_BUILT_IN_ACTION_IDS,
  RULE_TYPES,
  type LeftOperandType,
} from './monitoring.js';
import { SEVERITY_LABELS, STATE_LABELS, WORK_UNIT_EVENT_TYPES } from './work-units.js';

/**
 * What the rule editor chooses from (spec 000 §7 rule lookups, spec 002 §7 Rules and Action
 * catalogue): the lookups' answers, the operators' labels, the choices of a condition's value and
 * the actions a rule may run.
 */

/** GET /api/generalLookup/operators: id, the spec's name and the editor's label. */
export const operatorOptionSchema = z.object({ id: z.number(), name: z.string(), label: z.string() });
export type OperatorOption = z.infer<typeof operatorOptionSchema>;
export const OPERATOR_OPTIONS: OperatorOption[] = Object.entries(OPERATORS).map(([name, id]) => ({
  id,
  name,
  label: OPERATOR_LABELS[id],
}));

/** GET /api/generalLookup/ruletypes. */
export const RULE_TYPE_OPTIONS = Object.entries(RULE_TYPES).map(([name, id]) => ({ id: id as number, name }));

/** GET /api/generalLookup/occuranceoptions: the pattern and its label. */
export const occurrenceOptionSchema = z.object({ value: z.string(), name: z.string() });
export type OccurrenceOption = z.infer<typeof occurrenceOptionSchema>;
export const OCCURRENCE_OPTION_LIST: OccurrenceOption[] = OCCURRENCE_OPTIONS.map((option) => ({ ...option }));

/**
 * GET /api/generalLookup/ruleleftoperands?ruleType=: what a condition of that rule type may read.
 * `type` picks the value field (a choice list from `conditionInputOptions/{type}`, a time span, a
 * number or text); `field` says a field name (LeftOperandFieldName) goes with it.
 */
export const leftOperandOptionSchema = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  field: z.boolean(),
});
export type LeftOperandOption = z.infer<typeof leftOperandOptionSchema>;

/** The left operand types whose value is chosen from a list (the others are typed: text, number, timespan). */
export const CHOICE_OPERAND_TYPES = [
  'entity',
  'device',
  'tenant',
  'workUnitEvent',
  'workUnitType',
  'severity',
  'workUnitState',
] as const satisfies readonly LeftOperandType[];
export const LEFT_OPERAND_TYPES = [
  ...new Set(Object.values(LEFT_OPERANDS).map((operand) => operand.type)),
] as LeftOperandType[];
export const hasChoices = (type: string | undefined): boolean =>
  (CHOICE_OPERAND_TYPES as readonly string[]).includes(type ?? '');

/** GET /api/{tenantId}/rulelookup/conditionInputOptions/{leftOperandType}: one choice of a condition's value. */
export const conditionInputOptionSchema = z.object({ value: z.string(), label: z.string() });
export type ConditionInputOption = z.infer<typeof conditionInputOptionSchema>;
/** The most choices one answer carries (an entity list of a large tenant is cut here). */
export const CONDITION_INPUT_OPTIONS_MAX = 500;

/** Choices that are the contracts' own enumerations: the value is the id as text (RightOperand is text). */
export const ENUM_CONDITION_OPTIONS: Partial<Record<LeftOperandType, ConditionInputOption[]>> = {
  workUnitEvent: Object.entries(WORK_UNIT_EVENT_TYPES).map(([name, id]) => ({ value: String(id), label: name })),
  severity: Object.entries(SEVERITY_LABELS).map(([id, label]) => ({ value: id, label })),
  workUnitState: Object.entries(STATE_LABELS).map(([id, label]) => ({ value: id, label })),
};

/** GET v1/actionDefinitions/GetActionDefinitionsForRules(tenantId=): the actions a rule of that tenant may run. */
export const ruleActionDefinitionSchema = z.object({
  actionDefinitionId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  actionDefinitionTypeId: z.number(),
  tenantId: z.uuid().nullable(),
  /** Comma-delimited parameter names (spec 002 §3). */
  inputParameters: z.string().nullable(),
});
export type RuleActionDefinition = z.infer<typeof ruleActionDefinitionSchema>;

/** GET v1/rules/GetRulesForAction(actionDefinitionId=): the rules that run an action. */
export const ruleForActionSchema = z.object({ ruleId: z.uuid(), name: z.string() });

/** The server's own texts for a rule it refuses beyond the schema, and the grid's. */
export const RULE_AREA_MESSAGES = {
  tenantRequired: 'Please choose a tenant.',
  tenantlessRefused: 'Only a user of all tenants may create or change a rule of every tenant.',
  subscriptionOfTenant: "The subscription must belong to the rule's tenant.",
  copyPrefix: 'Copy of ',
  toggled: (enabled: boolean) => (enabled ? 'Rule enabled.' : 'Rule disabled.'),
  saved: 'Rule saved.',
  copied: 'Rule copied. The copy is disabled.',
  deleteConfirm: (name: string) => `Are you sure you want to delete the rule '${name}'?`,
} as const;

/** Work unit severities a Create Work Unit action may set (spec 002 §9: Sev0 to Sev4). */
export const ACTION_SEVERITY_OPTIONS = Object.entries(SEVERITY_LABELS).map(([id, label]) => ({ value: id, label }));

/**
 * Whether a rule may run an action definition: the rule types of spec 002 §3 (3, 4 and 6, the
 * built-in Set Colour and Create Work Unit), and Send Email (`RULE_BUILT_IN_ACTION_IDS`).
 */
export function isRuleActionDefinition(definition: {
  actionDefinitionId: string;
  actionDefinitionTypeId: number;
}): boolean {
  return (
    RULE_ACTION_TYPES.includes(definition.actionDefinitionTypeId) ||
    RULE_BUILT_IN_ACTION_IDS.includes(definition.actionDefinitionId)
  );
}
