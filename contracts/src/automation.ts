import { z } from 'zod';
import { formatInterval, intervalSeconds, INTERVAL_PATTERN } from './device-operations.js';
import { dbId, guid } from './fields.js';
import { ACTION_DEFINITION_TYPES, BUILT_IN_ACTION_TYPES } from './monitoring.js';
import { WORK_UNIT_EVENT_TYPES } from './work-units.js';

/**
 * Automation (spec 002 §3 Protocol, Protocol action, ActionDefinition; §4; §5; §7 "Protocols and
 * protocol actions", "Action catalogue and history"; §8; §9; spec 001 §2 Pending Actions, §7, §8):
 * protocols and their steps, the action catalogue, manual actions and email templates.
 */

export const AUTOMATION_MESSAGES = {
  // Spec 002 §5 and §8, verbatim (typos included).
  timerRequired: 'Timer Interval is required',
  fieldRequired: 'This field is required.',
  protocolSaveFailed: 'A problem occured saving the protocol. Please try again.',
  actionSaveFailed: 'A problem occurred saving the action. Please try again.',
  /** Spec 002 §8: the Test action's failure reuses the block's message. */
  actionTestFailed: 'A problem occurred saving the block. Please try again.',
  actionDeleted: 'Action Definition deleted successfully.',
  actionDeleteConfirm: 'Are you sure that you would like to delete this action definition and remove any Protocol and/or Rule associations?',
  // Spec 001 §2 and §8, verbatim.
  pendingBanner: 'There are pending actions that require manual approval. Go to "Pending Actions" to review.',
  noPendingActions: 'No pending actions for the current state.',
  noManualActions: 'No manual actions associated with this work unit.',
  triggerConfirm: (action: string) => `Are you sure you want to trigger "${action}" action?`,
  rejectConfirm: (action: string) => `Are you sure you want to reject "${action}" action?`,
  triggerFailed: (name: string) => `Unable to trigger manual action ${name} please try again.`,
  // Not in the spec's catalogue: the server's own texts for what a form would not send.
  timerFormat: 'Timer Interval must be in the format HH:mm:ss',
  timerMinimum: 'Timer Interval must be at least 10 minutes.',
  nameRequired: 'Name is required',
  eventRequired: 'Please choose a work unit event.',
  actionRequired: 'Please choose an action.',
  actionNotForProtocols: 'This action cannot be used by protocols.',
  builtInReadOnly: 'Built-in actions cannot be edited or deleted.',
  tenantlessRefused: 'Only a user of all tenants may create or change what every tenant shares.',
  protocolOfOtherTenant: "The action must belong to the protocol's tenant or be shared.",
  endpointRequired: 'Please enter the endpoint URL.',
  endpointInvalid: 'Please enter an http or https URL.',
  headerInvalid: 'Each header is one line as Name:Value.',
  parameterNameInvalid: 'Input parameters are names of letters, digits and underscores, separated by commas.',
  testPairsTooMany: 'A test takes at most seven extra parameters.',
  alreadyRun: 'This action has run already and cannot be repeated.',
  notPending: 'This action is not waiting for the work unit’s current state.',
  endpointForbidden: (reason: string) => `This endpoint cannot be called: ${reason}`,
} as const;

/**
 * Placeholders in an action's endpoint URL, headers and body (spec 002 §5: case-sensitive):
 * `{Name}` takes the run's parameter of that name or a value of the run's origin — a protocol
 * step's work unit fields ({WorkUnitId}, {Title}, {Description}, {SeverityId}, {StateId},
 * {TenantId}, {AssignedTo}, {CustomValue1}…), a rule's {RuleName}, {RuleId}, {RuleMatchId},
 * {SubjectId}, {Label}, {Phase} and the subject's latest packet ({Value}, {Metrics.cpu}…), a
 * test's {MessageId}. `{Secret:Name}` takes the latest value of the tenant's secret Name; the
 * action history shows SECRET_MASK in its place. In the URL values are URL-encoded, in a JSON
 * body JSON-escaped; a placeholder without a value is left empty and named in the run's detail.
 */
export const SECRET_PLACEHOLDER_PREFIX = 'Secret:';
export const SECRET_MASK = '••••••';

/** Spec 002 §9: the protocol timer's minimum and default (10 minutes). */
export const PROTOCOL_TIMER = { minimumSeconds: 600, defaultInterval: '00:10:00' } as const;

/** The timer interval as the form and the API take it: required, HH:mm:ss, at least 10 minutes. */
export const timerIntervalSchema = z
  .string({ error: AUTOMATION_MESSAGES.timerRequired })
  .trim()
  .min(1, AUTOMATION_MESSAGES.timerRequired)
  .regex(INTERVAL_PATTERN, AUTOMATION_MESSAGES.timerFormat)
  .refine((value) => (intervalSeconds(value) ?? 0) >= PROTOCOL_TIMER.minimumSeconds, AUTOMATION_MESSAGES.timerMinimum);
export { formatInterval, intervalSeconds };

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional().transform((value) => (value === undefined || value === '' ? null : value));

/** A protocol (spec 002 §3; `timerInverval` is spelled as the spec spells it). */
export const protocolSchema = z.object({
  protocolId: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** Null: the installation's, any tenant's unit may follow it. */
  tenantId: z.uuid().nullable(),
  tenant: z.object({ tenantId: z.uuid(), name: z.string() }).nullable().optional(),
  timerInverval: z.string(),
  manualActions: z.string().nullable(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
});
export type Protocol = z.infer<typeof protocolSchema>;

/** PUT v1/protocols (create) and POST v1/protocols/{id} (update). */
export const protocolInputSchema = z.object({
  name: z.string({ error: AUTOMATION_MESSAGES.nameRequired }).trim().min(1, AUTOMATION_MESSAGES.nameRequired).max(200),
  description: optionalText(2000),
  tenantId: guid('Please choose a tenant.').nullable().optional().transform((value) => value ?? null),
  timerInverval: timerIntervalSchema.optional().default(PROTOCOL_TIMER.defaultInterval),
  manualActions: optionalText(4000),
});
export type ProtocolInput = z.input<typeof protocolInputSchema>;
export type ProtocolValues = z.output<typeof protocolInputSchema>;

/** The work unit events a protocol action runs on (spec 002 §3). */
export const WORK_UNIT_EVENT_OPTIONS = Object.entries(WORK_UNIT_EVENT_TYPES).map(([name, id]) => ({ id: id as number, name }));
const EVENT_IDS: readonly number[] = Object.values(WORK_UNIT_EVENT_TYPES);

/** A protocol action (spec 002 §3), as `GET v1/protocolActions?$filter=protocolId eq {id}&$expand=actionDefinition` answers it. */
export const protocolActionSchema = z.object({
  protocolActionId: z.uuid(),
  protocolId: z.number().int(),
  actionDefinitionId: z.uuid(),
  workUnitEventTypeId: z.number().int(),
  parameters: z.record(z.string(), z.string()),
  sequence: z.number().int(),
  summary: z.string().nullable(),
  runAutomatically: z.boolean(),
  repeatable: z.boolean(),
  created: z.date(),
  createdBy: z.string().nullable(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
  actionDefinition: z.object({ actionDefinitionId: z.uuid(), name: z.string(), description: z.string().nullable(), inputParameters: z.string().nullable() }).nullable().optional(),
});
export type ProtocolAction = z.infer<typeof protocolActionSchema>;

/** PUT v1/protocolActions and POST v1/protocolActions/{id}: the server keeps only the parameters the action names (spec 002 §4). */
export const protocolActionInputSchema = z.object({
  protocolId: dbId('Please choose a protocol.'),
  actionDefinitionId: guid(AUTOMATION_MESSAGES.actionRequired),
  workUnitEventTypeId: z.number({ error: AUTOMATION_MESSAGES.eventRequired }).int().refine((id) => EVENT_IDS.includes(id), AUTOMATION_MESSAGES.eventRequired),
  parameters: z.record(z.string(), z.string().max(4000)).optional().default({}),
  sequence: z.number().int().min(0).max(10_000).optional().default(0),
  summary: optionalText(500),
  runAutomatically: z.boolean().optional().default(true),
  repeatable: z.boolean().optional().default(false),
});
export type ProtocolActionInput = z.input<typeof protocolActionInputSchema>;
export type ProtocolActionValues = z.output<typeof protocolActionInputSchema>;

/** GET v1/protocols/GetMatchedRules(id=), GetProtocolsForAction(actionDefinitionId=). */
export const protocolRefSchema = z.object({ protocolId: z.number().int(), name: z.string() });
export const matchedRuleSchema = z.object({ ruleId: z.uuid(), name: z.string(), enabled: z.boolean() });

/** HTTP methods an action may use (spec 002 §9). */
export const HTTP_METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Action definition types as the catalogue labels them (spec 002 §3). */
export const ACTION_DEFINITION_TYPE_LABELS: Record<number, string> = {
  1: 'Protocol Action (Built-In)',
  2: 'Protocol Action',
  3: 'Rule Action',
  4: 'Protocol or Rule Action',
  5: 'Protocol Action (Built-In)',
  6: 'Rule Action (Built-In)',
};
/** The types a user may give an action (the built-in ones are the portal's own). */
export const EDITABLE_ACTION_TYPES: readonly number[] = [ACTION_DEFINITION_TYPES.ProtocolAction, ACTION_DEFINITION_TYPES.RuleAction, ACTION_DEFINITION_TYPES.ProtocolOrRuleAction];
/** The types a protocol step may run (spec 002 §3: 1 and 5 built-in, 2, and 4). */
export const PROTOCOL_ACTION_TYPES: readonly number[] = [1, 2, 4, 5];
export const isBuiltInActionType = (typeId: number): boolean => BUILT_IN_ACTION_TYPES.includes(typeId);

/** An action definition (spec 002 §3), as the catalogue's grid and drawers read it. */
export const actionDefinitionSchema = z.object({
  actionDefinitionId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  actionDefinitionTypeId: z.number().int(),
  tenantId: z.uuid().nullable(),
  tenant: z.object({ tenantId: z.uuid(), name: z.string() }).nullable().optional(),
  /** Comma-delimited parameter names. */
  inputParameters: z.string().nullable(),
  endpointUrl: z.string().nullable(),
  httpMethod: z.string().nullable(),
  /** One header per line as Name:Value. */
  headers: z.string().nullable(),
  body: z.string().nullable(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
});
export type ActionDefinition = z.infer<typeof actionDefinitionSchema>;

const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Comma-separated names as typed, e.g. "Host, Port": the names, trimmed, without blanks. */
export const parameterNames = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);

/** PUT v1/actionDefinitions (create) and POST v1/actionDefinitions/{id} (update): user-made types only. */
export const actionDefinitionInputSchema = z
  .object({
    name: z.string({ error: AUTOMATION_MESSAGES.fieldRequired }).trim().min(1, AUTOMATION_MESSAGES.fieldRequired).max(200),
    description: optionalText(2000),
    actionDefinitionTypeId: z
      .number({ error: AUTOMATION_MESSAGES.fieldRequired })
      .int()
      .refine((id) => EDITABLE_ACTION_TYPES.includes(id), AUTOMATION_MESSAGES.builtInReadOnly),
    tenantId: guid('Please choose a tenant.').nullable().optional().transform((value) => value ?? null),
    inputParameters: optionalText(2000).refine((text) => parameterNames(text).every((name) => PARAMETER_NAME.test(name)), AUTOMATION_MESSAGES.parameterNameInvalid),
    endpointUrl: z
      .string({ error: AUTOMATION_MESSAGES.endpointRequired })
      .trim()
      .min(1, AUTOMATION_MESSAGES.endpointRequired)
      .max(2000)
      // Placeholders may stand anywhere; the URL must be http(s) once they are filled.
      .refine((url) => /^https?:\/\//i.test(url), AUTOMATION_MESSAGES.endpointInvalid),
    httpMethod: z.enum(HTTP_METHODS).optional().default('POST'),
    headers: optionalText(8000).refine((text) => !text || text.split(/\r?\n/).every((line) => line.trim() === '' || /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*:.*$/.test(line.trim())), AUTOMATION_MESSAGES.headerInvalid),
    body: optionalText(100_000),
  });
export type ActionDefinitionInput = z.input<typeof actionDefinitionInputSchema>;
export type ActionDefinitionValues = z.output<typeof actionDefinitionInputSchema>;

/** Spec 002 §5: a test takes up to seven extra param/value pairs besides the action's own parameters. */
export const MAX_TEST_PAIRS = 7;
/** POST v1/actionDefinitions/{id}/test: the input values (the action's named parameters and up to seven extra pairs); answers the test message's id. */
export const actionTestInputSchema = z.object({
  tenantId: guid('Please choose a tenant.').optional(),
  parameters: z.record(z.string(), z.string().max(4000)).optional().default({}),
  extra: z.array(z.object({ param: z.string().trim().min(1).max(200), value: z.string().max(4000) })).max(MAX_TEST_PAIRS, AUTOMATION_MESSAGES.testPairsTooMany).optional().default([]),
});
export const actionTestResultSchema = z.object({ id: z.uuid() });

/** DELETE v1/actionDefinitions/{id}: the answer carries message (spec 002 §7). */
export const deleteMessageSchema = z.object({ message: z.string() });

/** One entry of an action run's detail dialog: what was sent and what came back (secrets masked). */
export const actionRunDetailSchema = z.object({
  request: z.object({ method: z.string(), url: z.string(), headers: z.record(z.string(), z.string()), body: z.string().nullable() }).nullable(),
  responseStatus: z.number().int().nullable(),
  responseHeaders: z.record(z.string(), z.string()).nullable(),
  /** At most RESPONSE_BODY_KEPT characters of the response. */
  responseBody: z.string().nullable(),
  durationMs: z.number().int().nullable(),
});
export type ActionRunDetail = z.infer<typeof actionRunDetailSchema>;
/** How much of a response body the history keeps. */
export const RESPONSE_BODY_KEPT = 16_384;

/**
 * A manual action waiting on a work unit (spec 001 §3 Manual action): the protocol's steps for the
 * event of the unit's current state that do not run automatically, with what was done about them.
 */
export const manualActionSchema = z.object({
  protocolActionId: z.uuid(),
  protocolId: z.number().int(),
  workUnitEventTypeId: z.number().int(),
  summary: z.string().nullable(),
  repeatable: z.boolean(),
  parameters: z.record(z.string(), z.string()),
  actionDefinition: z.object({ actionDefinitionId: z.uuid(), name: z.string(), description: z.string().nullable(), inputParameters: z.string().nullable() }),
  /** The latest run or rejection of this step on this unit, if any. */
  lastRun: z.object({ resultStatusId: z.number().int(), actionProcessed: z.date(), rejected: z.boolean() }).nullable(),
});
export type ManualAction = z.infer<typeof manualActionSchema>;

/**
 * POST /v1/workunits/{workUnitId}/protocolActions/{protocolActionId}/trigger, in either form of
 * spec 001 §7: { workUnitEventType, userDefinedParams, reject } or { workUnitId,
 * workUnitEventTypeId, protocolActionId, userDefinedParams: '{}', reject }. userDefinedParams is an
 * object or its JSON text.
 */
export const triggerInputSchema = z.object({
  workUnitEventType: z.union([z.number().int(), z.string()]).optional(),
  workUnitEventTypeId: z.number().int().optional(),
  workUnitId: z.number().int().optional(),
  protocolActionId: z.uuid().optional(),
  userDefinedParams: z.union([z.record(z.string(), z.string()), z.string().max(20_000)]).optional(),
  reject: z.boolean().optional().default(false),
});
export type TriggerInput = z.input<typeof triggerInputSchema>;

/** Email templates (spec 002 §9). */
export const EMAIL_TEMPLATES = ['AllClear', 'CfsInternalWuCommNotification', 'Detailed', 'GeneralAlert', 'None', 'Rule', 'Simple', 'SOCAlert', 'ResolutionCenterCreated', 'ResolutionCenterResolved'] as const;
export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];

/** POST /v1/emailtemplates/render (spec 001 §7). */
export const emailRenderInputSchema = z.object({
  workUnitId: dbId('Please choose a work unit.'),
  protocolActionId: guid('Please choose a protocol action.'),
  userDefinedParams: z.union([z.record(z.string(), z.string()), z.string().max(20_000)]).optional(),
});
export const renderedEmailSchema = z.object({ to: z.string(), cc: z.string(), bcc: z.string(), subject: z.string(), body: z.string() });
export type RenderedEmail = z.infer<typeof renderedEmailSchema>;

/** A row of the Outbox screen (Administration): every email the portal sent or kept. */
export const outboxEmailSchema = z.object({
  emailId: z.number().int(),
  tenantId: z.uuid().nullable(),
  template: z.string(),
  isImportant: z.boolean(),
  to: z.string(),
  cc: z.string().nullable(),
  bcc: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
  workUnitId: z.number().int().nullable(),
  transport: z.enum(['outbox', 'smtp']),
  sent: z.date().nullable(),
  error: z.string().nullable(),
  created: z.date(),
});
export type OutboxEmail = z.infer<typeof outboxEmailSchema>;
