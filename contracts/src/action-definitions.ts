import { z } from 'zod';
import { AUTOMATION_MESSAGES } from './automation.js';
import { guid, optionalText } from './fields.js';
import { ACTION_DEFINITION_TYPES, BUILT_IN_ACTION_TYPES } from './monitoring.js';

/** The action catalogue (spec 002 §3 ActionDefinition; §5; §7 "Action catalogue and history"). */

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

/** HTTP methods an action may use (spec 002 §9). */
export const HTTP_METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

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
export const EDITABLE_ACTION_TYPES: readonly number[] = [
  ACTION_DEFINITION_TYPES.ProtocolAction,
  ACTION_DEFINITION_TYPES.RuleAction,
  ACTION_DEFINITION_TYPES.ProtocolOrRuleAction,
];
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
export const actionDefinitionInputSchema = z.object({
  name: z
    .string({ error: AUTOMATION_MESSAGES.fieldRequired })
    .trim()
    .min(1, AUTOMATION_MESSAGES.fieldRequired)
    .max(200),
  description: optionalText(2000),
  actionDefinitionTypeId: z
    .number({ error: AUTOMATION_MESSAGES.fieldRequired })
    .int()
    .refine((id) => EDITABLE_ACTION_TYPES.includes(id), AUTOMATION_MESSAGES.builtInReadOnly),
  tenantId: guid('Please choose a tenant.')
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  inputParameters: optionalText(2000).refine(
    (text) => parameterNames(text).every((name) => PARAMETER_NAME.test(name)),
    AUTOMATION_MESSAGES.parameterNameInvalid,
  ),
  endpointUrl: z
    .string({ error: AUTOMATION_MESSAGES.endpointRequired })
    .trim()
    .min(1, AUTOMATION_MESSAGES.endpointRequired)
    .max(2000)
    // Placeholders may stand anywhere; the URL must be http(s) once they are filled.
    .refine((url) => /^https?:\/\//i.test(url), AUTOMATION_MESSAGES.endpointInvalid),
  httpMethod: z.enum(HTTP_METHODS).optional().default('POST'),
  headers: optionalText(8000).refine(
    (text) =>
      !text ||
      text
        .split(/\r?\n/)
        .every((line) => line.trim() === '' || /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*:.*$/.test(line.trim())),
    AUTOMATION_MESSAGES.headerInvalid,
  ),
  body: optionalText(100_000),
});
export type ActionDefinitionValues = z.output<typeof actionDefinitionInputSchema>;

/** Spec 002 §5: a test takes up to seven extra param/value pairs besides the action's own parameters. */
export const MAX_TEST_PAIRS = 7;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * POST v1/actionDefinitions/{id}/test in our form: the action's input parameters by name, up to
 * seven extra pairs, and the tenant a shared action runs for; answers the test message's id.
 */
const actionTestFieldsSchema = z.object({
  tenantId: guid('Please choose a tenant.').optional(),
  parameters: z.record(z.string(), z.string().max(4000)).optional().default({}),
  extra: z
    .array(z.object({ param: z.string().trim().min(1).max(200), value: z.string().max(4000) }))
    .max(MAX_TEST_PAIRS, AUTOMATION_MESSAGES.testPairsTooMany)
    .optional()
    .default([]),
});
export type ActionTestBody = z.input<typeof actionTestFieldsSchema>;

/**
 * The test's body in either wire form. Ours has `parameters` holding an object or `extra` holding
 * a list; any other body is the spec's (002 §7: "body: the input values"), the values themselves,
 * `{ "Who": "x" }`, read as `{ parameters: { "Who": "x" } }` (a `tenantId` beside them is the
 * tenant, as in ours). Either way every name in `parameters` must be one of the action's input
 * parameters (an unknown one is a 400 naming it); other placeholders go in `extra`.
 */
export const actionTestInputSchema = z.preprocess((body) => {
  if (!isRecord(body) || isRecord(body.parameters) || Array.isArray(body.extra)) return body;
  const { tenantId, ...values } = body;
  return { ...(tenantId === undefined ? {} : { tenantId }), parameters: values };
}, actionTestFieldsSchema);
export const actionTestResultSchema = z.object({ id: z.uuid() });

/** DELETE v1/actionDefinitions/{id}: the answer carries message (spec 002 §7). */
export const deleteMessageSchema = z.object({ message: z.string() });

/** One entry of an action run's detail dialog: what was sent and what came back (secrets masked). */
export const actionRunDetailSchema = z.object({
  request: z
    .object({
      method: z.string(),
      url: z.string(),
      headers: z.record(z.string(), z.string()),
      body: z.string().nullable(),
    })
    .nullable(),
  responseStatus: z.number().int().nullable(),
  responseHeaders: z.record(z.string(), z.string()).nullable(),
  /** At most RESPONSE_BODY_KEPT characters of the response. */
  responseBody: z.string().nullable(),
  durationMs: z.number().int().nullable(),
});
export type ActionRunDetail = z.infer<typeof actionRunDetailSchema>;
/** How much of a response body the history keeps. */
export const RESPONSE_BODY_KEPT = 16_384;
