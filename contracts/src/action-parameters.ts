import { EMAIL_TEMPLATES } from './automation.js';
import { BLOCK_COLOR_NAMES, BUILT_IN_ACTIONS } from './monitoring.js';
import { ACTION_SEVERITY_OPTIONS } from './rule-options.js';

/**
 * How the editors (rule actions, protocol actions) offer a built-in action's parameter (spec 002
 * §3: Set Colour's Color; Send Email's IsImportant, Template, ExtraParameters; Create Work Unit's
 * SeverityId, TenantId, ProtocolId): a choice among the values the action accepts, true/false, a
 * tenant, or free text. The server reads the same values (`parseEmailParameters`, `colorHex`).
 */
type ActionParameterInput =
  | { kind: 'choice'; options: readonly { value: string; label: string }[]; emptyLabel?: string }
  | { kind: 'tenant'; emptyLabel: string }
  | { kind: 'text' };

const TRUE_FALSE: ActionParameterInput = {
  kind: 'choice',
  options: [
    { value: 'true', label: 'true' },
    { value: 'false', label: 'false' },
  ],
  emptyLabel: 'false (default)',
};

const BUILT_IN_ACTION_PARAMETERS: Readonly<Record<string, Readonly<Record<string, ActionParameterInput>>>> = {
  [BUILT_IN_ACTIONS.setColor.id]: {
    Color: { kind: 'choice', options: BLOCK_COLOR_NAMES.map((name) => ({ value: name, label: name })) },
  },
  [BUILT_IN_ACTIONS.sendEmail.id]: {
    IsImportant: TRUE_FALSE,
    Template: {
      kind: 'choice',
      options: EMAIL_TEMPLATES.map((name) => ({ value: name, label: name })),
      emptyLabel: 'Simple (default)',
    },
    ExtraParameters: { kind: 'text' },
  },
  [BUILT_IN_ACTIONS.createWorkUnit.id]: {
    SeverityId: { kind: 'choice', options: ACTION_SEVERITY_OPTIONS },
    TenantId: { kind: 'tenant', emptyLabel: "The rule's tenant" },
    ProtocolId: { kind: 'text' },
  },
};

/** How the editors label the built-ins' parameters; the API and the spec name them as the keys say. */
const BUILT_IN_PARAMETER_LABELS: Readonly<Record<string, string>> = {
  IsImportant: 'Important',
  ExtraParameters: 'Extra Parameters',
  Color: 'Colour',
  SeverityId: 'Severity',
  TenantId: 'Tenant',
  ProtocolId: 'Protocol Id',
};

/** A parameter's label in the editors: a built-in's in words, an HTTP action's as its author named it. */
export function actionParameterLabel(actionDefinitionId: string | null | undefined, name: string): string {
  const builtIn = actionDefinitionId ? BUILT_IN_ACTION_PARAMETERS[actionDefinitionId] : undefined;
  return (builtIn && name in builtIn ? BUILT_IN_PARAMETER_LABELS[name] : undefined) ?? name;
}

/** The input of an action's parameter: the built-in's declared one, else free text. */
export function actionParameterInput(
  actionDefinitionId: string | null | undefined,
  name: string,
): ActionParameterInput {
  return (actionDefinitionId ? BUILT_IN_ACTION_PARAMETERS[actionDefinitionId]?.[name] : undefined) ?? { kind: 'text' };
}

/**
 * The placeholders a run fills from what it runs for (spec 002 §5: case-sensitive), besides the
 * run's own parameters and `{Secret:Name}`: in an HTTP action's URL, headers and body, and in a
 * built-in's parameters (Send Email's ExtraParameters). The runner fills each of these names for
 * its kind of run, and the action and protocol editors list them.
 */
export const RUN_PLACEHOLDERS = {
  /** Every run. */
  any: ['TenantId', 'ActionDefinitionId'],
  /** A protocol step on a work unit: the unit's fields and the step's. */
  protocol: [
    'WorkUnitId',
    'Title',
    'Description',
    'Resolution',
    'SeverityId',
    'StateId',
    'AssignedTo',
    'AssignmentGroup',
    'StakeholderEmailAddress',
    'StakeholderFullName',
    'ProtocolId',
    'ProtocolActionId',
    'WorkUnitEventTypeId',
    'TriggeredBy',
  ],
  /**
   * A rule's match or expiration: the rule and match, the entity (a packet rule's subject) and its
   * latest packet's fields ({Timestamp}, {Value}, {Metrics.cpu}…), the work unit (a work unit rule's
   * subject, or the one the match's Create Work Unit opened) and the title.
   */
  rule: [
    'RuleName',
    'RuleId',
    'RuleMatchId',
    'SubjectId',
    'EntityId',
    'WorkUnitId',
    'Title',
    'Label',
    'Phase',
    'Timestamp',
  ],
  /** A test from the action catalogue. */
  test: ['MessageId', 'TriggeredBy'],
} as const;
