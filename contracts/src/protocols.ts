import { z } from 'zod';
import { actionParametersInput, AUTOMATION_MESSAGES } from './automation.js';
import { intervalSeconds, INTERVAL_PATTERN } from './device-operations.js';
import { dbId, guid, optionalText, requiredText } from './fields.js';
import { WORK_UNIT_EVENT_TYPES } from './work-units.js';

/** Protocols and their steps, the protocol actions (spec 002 §3 Protocol, Protocol action; §7 "Protocols and protocol actions"). */

/** Spec 002 §9: the protocol timer's minimum and default (10 minutes). */
export const PROTOCOL_TIMER = { minimumSeconds: 600, defaultInterval: '00:10:00' } as const;

/** The timer interval as the form and the API take it: required, HH:mm:ss, at least 10 minutes. */
export const timerIntervalSchema = z
  .string({ error: AUTOMATION_MESSAGES.timerRequired })
  .trim()
  .min(1, AUTOMATION_MESSAGES.timerRequired)
  .regex(INTERVAL_PATTERN, AUTOMATION_MESSAGES.timerFormat)
  .refine((value) => (intervalSeconds(value) ?? 0) >= PROTOCOL_TIMER.minimumSeconds, AUTOMATION_MESSAGES.timerMinimum);

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
  name: requiredText(AUTOMATION_MESSAGES.nameRequired, 200),
  description: optionalText(2000),
  tenantId: guid('Please choose a tenant.')
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  timerInverval: timerIntervalSchema.optional().default(PROTOCOL_TIMER.defaultInterval),
  manualActions: optionalText(4000),
});
export type ProtocolInput = z.input<typeof protocolInputSchema>;
export type ProtocolValues = z.output<typeof protocolInputSchema>;

/** The work unit events a protocol action runs on (spec 002 §3). */
export const WORK_UNIT_EVENT_OPTIONS = Object.entries(WORK_UNIT_EVENT_TYPES).map(([name, id]) => ({
  id: id as number,
  name,
}));
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
  actionDefinition: z
    .object({
      actionDefinitionId: z.uuid(),
      name: z.string(),
      description: z.string().nullable(),
      inputParameters: z.string().nullable(),
    })
    .nullable()
    .optional(),
});
export type ProtocolAction = z.infer<typeof protocolActionSchema>;

/** PUT v1/protocolActions and POST v1/protocolActions/{id}: the server keeps only the parameters the action names (spec 002 §4). */
export const protocolActionInputSchema = z.object({
  protocolId: dbId('Please choose a protocol.'),
  actionDefinitionId: guid(AUTOMATION_MESSAGES.actionRequired),
  workUnitEventTypeId: z
    .number({ error: AUTOMATION_MESSAGES.eventRequired })
    .int()
    .refine((id) => EVENT_IDS.includes(id), AUTOMATION_MESSAGES.eventRequired),
  parameters: z.record(z.string(), z.string().max(4000)).optional().default({}),
  sequence: z.number().int().min(0).max(10_000).optional().default(0),
  summary: optionalText(500),
  runAutomatically: z.boolean().optional().default(true),
  repeatable: z.boolean().optional().default(false),
});
export type ProtocolActionInput = z.input<typeof protocolActionInputSchema>;
export type ProtocolActionValues = z.output<typeof protocolActionInputSchema>;

/**
 * The same as a request sends it: `parameters` as an object of names and texts (ours) or as that
 * object's JSON text (the spec's), `"{\"Template\":\"Simple\"}"`.
 */
export const protocolActionBodySchema = protocolActionInputSchema.extend({
  parameters: actionParametersInput('parameters').optional().default({}),
});

/** GET v1/protocols/GetMatchedRules(id=), GetProtocolsForAction(actionDefinitionId=). */
export const protocolRefSchema = z.object({ protocolId: z.number().int(), name: z.string() });
export const matchedRuleSchema = z.object({ ruleId: z.uuid(), name: z.string(), enabled: z.boolean() });

/** The types a protocol step may run (spec 002 §3: 1 and 5 built-in, 2, and 4). */
export const PROTOCOL_ACTION_TYPES: readonly number[] = [1, 2, 4, 5];
