/**
 * Monitoring's shared enumerations and constants (spec 002 §3 Block, Rule, Condition, ActionDefinition;
 * §9), used by the blocks, rules, rule matches and action areas and by the rule engine. The
 * database stores the ids.
 */

/** Block colours by name, hex without '#' (spec 002 §9). */
export const BLOCK_COLORS = {
  Black: '000000',
  Blue: '0000FF',
  Green: '009900',
  Grey: 'C0C0C0',
  Orange: 'FF8000',
  Red: 'FF3333',
  White: 'FFFFFF',
  Yellow: 'FFFF33',
} as const;
export type BlockColorName = keyof typeof BLOCK_COLORS;
export const BLOCK_COLOR_NAMES = Object.keys(BLOCK_COLORS) as BlockColorName[];

/** Block types (spec 002 §3: 1 numeric, 2 smallText, 8 deviceHeartbeat; the last is the agents' own and cannot be chosen). */
export const BLOCK_TYPES = { numeric: 1, smallText: 2, deviceHeartbeat: 8 } as const;

/** Rule types (spec 002 §3). */
export const RULE_TYPES = {
  Ingestion: 1,
  Correlation: 2,
  History: 3,
  WorkUnit: 4,
  Maintenance: 5,
  Aggregation: 6,
} as const;
export type RuleTypeId = (typeof RULE_TYPES)[keyof typeof RULE_TYPES];
export const RULE_TYPE_IDS = Object.values(RULE_TYPES) as RuleTypeId[];
export const ruleTypeName = (id: number): string =>
  Object.entries(RULE_TYPES).find(([, value]) => value === id)?.[0] ?? String(id);

/** How a condition joins the ones before it (spec 002 §3: And 0, Or 1). */
export const CONDITION_TYPES = { And: 0, Or: 1 } as const;

/** Condition operators (spec 002 §3), with the labels the editor shows. */
export const OPERATORS = {
  Equals: 1,
  NotEquals: 2,
  GreaterThan: 3,
  LessThan: 4,
  Contains: 5,
  GreaterThanOrEqual: 6,
  LessThanOrEqual: 7,
  Matches: 8,
  StartsWith: 9,
  EndsWith: 10,
  NotContains: 11,
  NotMatches: 12,
  IsEmpty: 13,
  IsNotEmpty: 14,
} as const;
export type OperatorId = (typeof OPERATORS)[keyof typeof OPERATORS];
export const OPERATOR_IDS = Object.values(OPERATORS) as OperatorId[];
/** The operators as people read them, in the editor and a match's reason (spec 002 §3 names them in one word). */
export const OPERATOR_LABELS: Record<OperatorId, string> = {
  [OPERATORS.Equals]: 'Equals',
  [OPERATORS.NotEquals]: 'Not Equals',
  [OPERATORS.GreaterThan]: 'Greater Than',
  [OPERATORS.LessThan]: 'Less Than',
  [OPERATORS.Contains]: 'Contains',
  [OPERATORS.GreaterThanOrEqual]: 'Greater Than Or Equal',
  [OPERATORS.LessThanOrEqual]: 'Less Than Or Equal',
  [OPERATORS.Matches]: 'Matches',
  [OPERATORS.StartsWith]: 'Starts With',
  [OPERATORS.EndsWith]: 'Ends With',
  [OPERATORS.NotContains]: 'Not Contains',
  [OPERATORS.NotMatches]: 'Not Matches',
  [OPERATORS.IsEmpty]: 'Is Empty',
  [OPERATORS.IsNotEmpty]: 'Is Not Empty',
};

/** An operator's label from the name the spec gives it (a match's reason records the name); an unknown name as it is. */
export function operatorLabel(name: string): string {
  return Object.hasOwn(OPERATORS, name) ? OPERATOR_LABELS[OPERATORS[name as keyof typeof OPERATORS]] : name;
}
/** Operators that take no right operand: the editor hides Value (spec 002 §5). */
export const VALUELESS_OPERATORS: readonly OperatorId[] = [OPERATORS.IsEmpty, OPERATORS.IsNotEmpty];

/**
 * What a condition's left operand reads (the lookup `ruleleftoperands` offers them by rule type).
 * `type` picks the condition input options and the editor's value field: `text`, `number`,
 * `timespan` (HH:mm:ss), or a choice list (`entity`, `device`, `tenant`, `workUnitEvent`,
 * `workUnitType`, `severity`, `workUnitState`). Packet field operands name their field in
 * LeftOperandFieldName (e.g. `cpu` for Metrics.cpu); aggregates name the packet field they fold
 * (`Value` or a group's field, e.g. `Metrics.cpu`).
 */
export const LEFT_OPERANDS = {
  Value: { id: 1, name: 'Value', type: 'text', field: false },
  Property: { id: 2, name: 'Properties', type: 'text', field: true },
  Metric: { id: 3, name: 'Metrics', type: 'number', field: true },
  State: { id: 4, name: 'States', type: 'text', field: true },
  Diagnostic: { id: 5, name: 'Diagnostics', type: 'text', field: true },
  Entity: { id: 6, name: 'Entity', type: 'entity', field: false },
  Device: { id: 7, name: 'Device', type: 'device', field: false },
  /** Time since the entity's last packet (History rules: an entity that went quiet). */
  PacketAge: { id: 8, name: 'Time Since Last Packet', type: 'timespan', field: false },
  WorkUnitEvent: { id: 10, name: 'Work Unit Event', type: 'workUnitEvent', field: false },
  WorkUnitType: { id: 11, name: 'Work Unit Type', type: 'workUnitType', field: false },
  Severity: { id: 12, name: 'Severity', type: 'severity', field: false },
  WorkUnitState: { id: 13, name: 'Work Unit State', type: 'workUnitState', field: false },
  WorkUnitTitle: { id: 14, name: 'Work Unit Title', type: 'text', field: false },
  /** The fixed first condition of a rule with a tenant (spec 002 §5: left operand 20). */
  Tenant: { id: 20, name: 'Tenant', type: 'tenant', field: false },
  Count: { id: 30, name: 'Count', type: 'number', field: true },
  Average: { id: 31, name: 'Average', type: 'number', field: true },
  Minimum: { id: 32, name: 'Minimum', type: 'number', field: true },
  Maximum: { id: 33, name: 'Maximum', type: 'number', field: true },
  Sum: { id: 34, name: 'Sum', type: 'number', field: true },
} as const;
export type LeftOperandKey = keyof typeof LEFT_OPERANDS;
export type LeftOperandType = (typeof LEFT_OPERANDS)[LeftOperandKey]['type'];
export const TENANT_LEFT_OPERAND = LEFT_OPERANDS.Tenant.id;
export const leftOperandById = (id: number) => Object.values(LEFT_OPERANDS).find((operand) => operand.id === id);

const PACKET_OPERANDS: readonly LeftOperandKey[] = [
  'Value',
  'Property',
  'Metric',
  'State',
  'Diagnostic',
  'Entity',
  'Device',
  'Tenant',
];
/** The left operands each rule type offers (the `ruleleftoperands` lookup). */
export const LEFT_OPERANDS_BY_RULE_TYPE: Record<RuleTypeId, readonly LeftOperandKey[]> = {
  [RULE_TYPES.Ingestion]: PACKET_OPERANDS,
  [RULE_TYPES.Correlation]: PACKET_OPERANDS,
  [RULE_TYPES.History]: [...PACKET_OPERANDS, 'PacketAge'],
  [RULE_TYPES.WorkUnit]: ['WorkUnitEvent', 'WorkUnitType', 'Severity', 'WorkUnitState', 'WorkUnitTitle', 'Tenant'],
  [RULE_TYPES.Maintenance]: ['Entity', 'Device', 'Tenant', 'Property'],
  [RULE_TYPES.Aggregation]: [...PACKET_OPERANDS, 'Count', 'Average', 'Minimum', 'Maximum', 'Sum'],
};

/**
 * Occurrence patterns (the `occuranceoptions` lookup): how often a condition must hold before the
 * rule matches. `N/M`: in N of the subject's last M packets (History), or for N distinct entities
 * within the lifetime (Correlation, N only). Null or `1/1`: every time it holds.
 */
export const EVERY_OCCURRENCE = '1/1';
export const OCCURRENCE_OPTIONS = [
  { value: EVERY_OCCURRENCE, name: 'Every occurrence' },
  { value: '2/2', name: '2 in a row' },
  { value: '3/3', name: '3 in a row' },
  { value: '5/5', name: '5 in a row' },
  { value: '2/3', name: '2 of the last 3' },
  { value: '3/5', name: '3 of the last 5' },
  { value: '5/10', name: '5 of the last 10' },
] as const;
export const OCCURRENCE_PATTERN = /^([1-9][0-9]?)\/([1-9][0-9]?)$/;

/** Action definition types (spec 002 §3). */
export const ACTION_DEFINITION_TYPES = {
  ProtocolActionBuiltIn: 1,
  ProtocolAction: 2,
  RuleAction: 3,
  ProtocolOrRuleAction: 4,
  ProtocolActionBuiltInAlt: 5,
  RuleActionBuiltIn: 6,
} as const;
export const BUILT_IN_ACTION_TYPES: readonly number[] = [1, 5, 6];
/** The types a rule's match and expiration actions may use. */
export const RULE_ACTION_TYPES: readonly number[] = [3, 4, 6];

/** The three built-in actions and their fixed ids (spec 002 §3), with their parameters. */
export const BUILT_IN_ACTIONS = {
  sendEmail: {
    id: '6a1f0c52-7d3e-4c1b-9a55-0e5b8f3d1001',
    name: 'Send Email',
    parameters: ['IsImportant', 'Template', 'ExtraParameters'],
  },
  setColor: { id: '6a1f0c52-7d3e-4c1b-9a55-0e5b8f3d1002', name: 'Set Colour', parameters: ['Color'] },
  createWorkUnit: {
    id: '6a1f0c52-7d3e-4c1b-9a55-0e5b8f3d1003',
    name: 'Create Work Unit',
    parameters: ['SeverityId', 'TenantId', 'ProtocolId'],
  },
} as const;

/**
 * The built-in actions a rule may run beside those of `RULE_ACTION_TYPES`: Send Email, which tells
 * of the match (its rule, subject, label and when) to the addresses its ExtraParameters name and the
 * tenant's internal notification address, with the templates protocols use.
 */
export const RULE_BUILT_IN_ACTION_IDS: readonly string[] = [BUILT_IN_ACTIONS.sendEmail.id];

/** Action result statuses (spec 002 §3). */
export const ACTION_RESULT_STATUSES = {
  Unknown: 0,
  Success: 1,
  Failure: 2,
  EnqueueSuccess: 3,
  EnqueueFailure: 4,
  Suppressed: 5,
} as const;

/** Polling (spec 002 §9). */
export const MONITORING_POLLING_MS = {
  blocks: 10_000,
  packetDrawer: 10_000,
  ruleMatches: 30_000,
  logs: 30_000,
} as const;

export const MONITORING_LIMITS = {
  /** Block history: 100 rows a page, the only size (spec 002 §9). */
  blockHistoryPageSize: 100,
  /** The rule-matches drawer: 100 a page, expires descending (spec 002 §9). */
  ruleMatchesPageSize: 100,
  /** Minimum rule match lifetime, seconds (spec 002 §9). */
  minimumRuleLifetimeSeconds: 300,
  /** A new rule's lifetime (spec 002 §4). */
  defaultRuleLifetime: '00:05:00',
  /** Dates before this read as empty (spec 002 §9). */
  emptyDateThreshold: '2022-01-01T00:00:00Z',
  defaultTimeZone: 'America/New_York',
  maxConditions: 50,
  maxRuleActions: 20,
  /** A regular expression in a Matches condition, characters. */
  maxPatternLength: 1000,
} as const;
