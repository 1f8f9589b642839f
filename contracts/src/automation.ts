import { z } from 'zod';
import { dbId, guid } from './fields.js';

/**
 * Automation (spec 002 §3 Protocol, Protocol action, ActionDefinition; §4; §5; §7 "Protocols and
 * protocol actions", "Action catalogue and history"; §8; §9; spec 001 §2 Pending Actions, §7, §8):
 * the messages of protocols and the action catalogue (protocols.ts, action-definitions.ts), manual
 * actions and email templates.
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
  actionDeleteConfirm:
    'Are you sure that you would like to delete this action definition and remove any Protocol and/or Rule associations?',
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

/** Optional text as the forms send it: trimmed, and an empty text stored as null. */
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
  actionDefinition: z.object({
    actionDefinitionId: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    inputParameters: z.string().nullable(),
  }),
  /** The latest run or rejection of this step on this unit, if any. */
  lastRun: z.object({ resultStatusId: z.number().int(), actionProcessed: z.date(), rejected: z.boolean() }).nullable(),
});
export type ManualAction = z.infer<typeof manualActionSchema>;

const parameterTexts = z.record(z.string(), z.string().max(4000));
const jsonValues = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/**
 * An action's parameters as a request sends them, in either wire form: an object of names and
 * texts, `{ "Color": "Red" }`, or that object's JSON text, `"{\"Color\":\"Red\"}"` (spec 001 §7's
 * second payload sends userDefinedParams as the text '{}'; a protocol action's parameters are
 * taken the same way). In the text, numbers, true/false and null are read as their text (null as
 * ''); an empty text is no parameters. Anything else is a 400 on `field`.
 *
 * @example
 *   z.object({ userDefinedParams: actionParametersInput('userDefinedParams').optional() })
 */
export function actionParametersInput(field: string) {
  const message = `${field} must be a JSON object of names and values.`;
  return z.union([parameterTexts, z.string().max(20_000)]).transform((value, ctx) => {
    if (typeof value !== 'string') return value;
    if (value.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
    const values = jsonValues.safeParse(parsed);
    const texts = values.success
      ? parameterTexts.safeParse(
          Object.fromEntries(
            Object.entries(values.data).map(([name, text]) => [name, text === null ? '' : String(text)]),
          ),
        )
      : undefined;
    if (texts?.success) return texts.data;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
}

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
  userDefinedParams: actionParametersInput('userDefinedParams').optional(),
  reject: z.boolean().optional().default(false),
});
export type TriggerInput = z.input<typeof triggerInputSchema>;

/** Email templates (spec 002 §9). */
export const EMAIL_TEMPLATES = [
  'AllClear',
  'CfsInternalWuCommNotification',
  'Detailed',
  'GeneralAlert',
  'None',
  'Rule',
  'Simple',
  'SOCAlert',
  'ResolutionCenterCreated',
  'ResolutionCenterResolved',
] as const;
export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];

/** POST /v1/emailtemplates/render (spec 001 §7). */
export const emailRenderInputSchema = z.object({
  workUnitId: dbId('Please choose a work unit.'),
  protocolActionId: guid('Please choose a protocol action.'),
  userDefinedParams: actionParametersInput('userDefinedParams').optional(),
});
export const renderedEmailSchema = z.object({
  to: z.string(),
  cc: z.string(),
  bcc: z.string(),
  subject: z.string(),
  body: z.string(),
});
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
