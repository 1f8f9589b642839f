import { z } from 'zod';
import { listResponseSchema } from './api.js';
import { SCRIPT_LIMITS } from './agent.js';
import { guid } from './fields.js';
import { FLEET_LIMITS, FLEET_MESSAGES, FREQUENCY_TYPES, PARAMETER_SOURCES } from './fleet.js';

/**
 * Device operations (spec 002 §2 Devices: the Device Operations drawer; §3 DeviceOperation,
 * Operation; §4 queueing; §5; §7 "Device operations"; §8).
 */
export const DEVICE_OPERATION_MESSAGES = {
  labelRequired: 'Label is required',
  intervalRequired: FLEET_MESSAGES.intervalRequired,
  intervalFormat: 'Interval must be in the format HH:mm:ss',
  intervalMinimum: `Interval must be at least ${FLEET_LIMITS.minimumOperationIntervalSeconds} seconds.`,
  frequencyRequired: 'Please choose a frequency.',
  frequencyNotAllowed: 'The operation does not allow this frequency.',
  operationRequired: 'Please choose an operation.',
  operationNotFound: 'The operation is not available to this device.',
  deviceRequired: 'Please choose a device.',
  deviceNotFound: 'The device was not found.',
  deviceFixed: 'A device operation cannot move to another device.',
  parameterRequired: (name: string) => `${name} is required.`,
  parameterNameRequired: 'A parameter needs a name.',
  sourceInvalid: 'Please choose a source.',
  secretNotFound: (name: string) => `The secret '${name}' does not exist in the device's tenant.`,
  onlyOnDemand: 'Only On Demand operations can be queued.',
  saveFailed: 'A problem occurred saving the device operation. Please try again.',
  cloneTargetRequired: 'Please choose a target device.',
  cloneTargetIsSource: 'The target device must not be the source device.',
  cloneTargetTenant: 'The target device must be in the same tenant as the source device.',
  cloneOperationsRequired: 'Please choose at least one operation.',
  cloneOperationNotOfSource: 'Every operation must be one of the source device.',
  deleteConfirm: 'Are you sure you want to delete this device operation? This cannot be undone.',
  queued: 'Queued',
  hostAccessRequired:
    'Only users with the Devices.HostAccess permission may set up or run operations that read files or run commands on a device.',
  scriptsRequired: 'Only users with the Devices.Scripts permission may set up or run scripts on a device.',
  notAScript: 'This operation does not run a script.',
  scriptQueued: 'Queued.',
  scriptNotInstalled: 'Its script package is not installed on this device: install it first.',
} as const;

/** `HH:mm:ss`; hours may pass 23 (a daily operation is 24:00:00). */
export const INTERVAL_PATTERN = /^(\d{2,}):([0-5]\d):([0-5]\d)$/;

/** Seconds of an `HH:mm:ss` text, or undefined when it is not one. */
export function intervalSeconds(text: string): number | undefined {
  const match = INTERVAL_PATTERN.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/** `HH:mm:ss` of a number of seconds. */
export function formatInterval(seconds: number): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

/** An interval as the form and the API take it (spec 002 §5: required, HH:mm:ss, at least 30 seconds). */
export const intervalSchema = z
  .string({ error: DEVICE_OPERATION_MESSAGES.intervalRequired })
  .trim()
  .min(1, DEVICE_OPERATION_MESSAGES.intervalRequired)
  .regex(INTERVAL_PATTERN, DEVICE_OPERATION_MESSAGES.intervalFormat)
  .refine(
    (text) => (intervalSeconds(text) ?? Infinity) >= FLEET_LIMITS.minimumOperationIntervalSeconds,
    DEVICE_OPERATION_MESSAGES.intervalMinimum,
  );

export const parameterSourceSchema = z.enum(PARAMETER_SOURCES, { error: DEVICE_OPERATION_MESSAGES.sourceInvalid });

/**
 * One parameter of a device operation (spec 002 §3: Name, Source, Value). For a SecuredValue the
 * value is the name of a tenant secret: the secret's value never leaves the server except to the agent.
 */
export const deviceOperationParameterSchema = z.object({
  Name: z
    .string({ error: DEVICE_OPERATION_MESSAGES.parameterNameRequired })
    .trim()
    .min(1, DEVICE_OPERATION_MESSAGES.parameterNameRequired)
    .max(200),
  Source: parameterSourceSchema,
  Value: z.string().max(4000).nullable(),
});
export type DeviceOperationParameter = z.infer<typeof deviceOperationParameterSchema>;

/** An operation's parameter definition as the package catalogue stores it (spec 002 §3). */
export const parameterDefinitionSchema = z.looseObject({
  Name: z.string(),
  Description: z.string().nullish(),
  Required: z.boolean().nullish(),
  Source: z.string().nullish(),
  DefaultValue: z.string().nullish(),
  PlaceholderKeyForSecretValue: z.string().nullish(),
  SecuredSourceKeyToGetSecretValue: z.string().nullish(),
});
export type ParameterDefinition = z.infer<typeof parameterDefinitionSchema>;

const frequencyIds = Object.values(FREQUENCY_TYPES) as [number, ...number[]];
export const frequencyTypeIdSchema = z
  .number({ error: DEVICE_OPERATION_MESSAGES.frequencyRequired })
  .int(DEVICE_OPERATION_MESSAGES.frequencyRequired)
  .refine((value) => frequencyIds.includes(value), DEVICE_OPERATION_MESSAGES.frequencyRequired);

export const FREQUENCY_LABELS: Readonly<Record<number, string>> = {
  1: 'On Demand',
  2: 'Recurring',
  3: 'One Time Keep Alive',
};

/** PUT v1/deviceOperations (the device operation without its id) and POST v1/deviceOperations/{id}. */
export const deviceOperationInputSchema = z.object({
  deviceId: guid(DEVICE_OPERATION_MESSAGES.deviceRequired),
  operationId: guid(DEVICE_OPERATION_MESSAGES.operationRequired),
  label: z
    .string({ error: DEVICE_OPERATION_MESSAGES.labelRequired })
    .trim()
    .min(1, DEVICE_OPERATION_MESSAGES.labelRequired)
    .max(200),
  // Left out, they are cleared.
  referenceId: z.string().max(200).nullable().default(null),
  globalSettingId: z.string().max(200).nullable().default(null),
  enabled: z.boolean().default(true),
  frequencyTypeId: frequencyTypeIdSchema,
  interval: intervalSchema,
  isInteractive: z.boolean().default(false),
  parameters: z.array(deviceOperationParameterSchema).max(100).default([]),
});
export type DeviceOperationInput = z.infer<typeof deviceOperationInputSchema>;

/** The latest packet of a device operation (its results): `Value` and the packet's timestamp. */
export const packetInfoSchema = z.object({ value: z.unknown(), age: z.string().nullable() });
export type PacketInfo = z.infer<typeof packetInfoSchema>;

export const operationPackageSchema = z.object({
  packageId: z.uuid(),
  name: z.string(),
  tenantId: z.uuid().nullable(),
});

export const operationSchema = z.object({
  operationId: z.uuid(),
  packageId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  parameterDefinitions: z.array(parameterDefinitionSchema),
  /** The frequencies the operation allows (FREQUENCY_TYPES ids). */
  frequencyDefinitions: z.array(z.number().int()),
  defaultInterval: z.string(),
  operationType: z.number().int(),
  operationResultTypeId: z.number().int(),
  package: operationPackageSchema.optional(),
});
export type Operation = z.infer<typeof operationSchema>;

/** A row of GET v1/operations/GetAvailableOperationsForDevice(tenantId,operatingSystemId). */
export const availableOperationSchema = operationSchema.extend({ totalBeforeFiltering: z.number().int() });
export type AvailableOperation = z.infer<typeof availableOperationSchema>;

/**
 * The answer of GET v1/operations/GetAvailableOperationsForDevice: a list answer (`ListResponse`)
 * of these rows, each with the fields `$select` names (every field without it).
 */
export const availableOperationsAnswerSchema = listResponseSchema(
  availableOperationSchema
    .partial()
    .describe('An operation the device can run: the fields $select names, else every one'),
);

export const deviceOperationSchema = z.object({
  deviceOperationId: z.uuid(),
  deviceId: z.uuid(),
  tenantId: z.uuid(),
  operationId: z.uuid(),
  label: z.string(),
  referenceId: z.string().nullable(),
  globalSettingId: z.string().nullable(),
  enabled: z.boolean(),
  operationComplete: z.boolean(),
  completionToken: z.uuid().nullable(),
  frequencyTypeId: z.number().int(),
  interval: z.string(),
  isInteractive: z.boolean(),
  isDeleted: z.boolean(),
  parameters: z.array(deviceOperationParameterSchema),
  created: z.date(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
  packetInfo: packetInfoSchema.nullable(),
  operation: operationSchema.optional(),
});
export type DeviceOperation = z.infer<typeof deviceOperationSchema>;

/** Shown as Queued (spec 002 §4): OnDemand, not complete, and a completion token exists. */
export function isQueued(
  row: Pick<DeviceOperation, 'frequencyTypeId' | 'operationComplete' | 'completionToken'>,
): boolean {
  return row.frequencyTypeId === FREQUENCY_TYPES.OnDemand && !row.operationComplete && row.completionToken !== null;
}

export const operationLogEntrySchema = z.object({
  logEntryId: z.number().int(),
  created: z.date(),
  entryType: z.string(),
  detail: z.string(),
});
export type OperationLogEntry = z.infer<typeof operationLogEntrySchema>;

/** The most log entries GET v1/deviceOperations/{id}/logs answers, newest first. */
export const OPERATION_LOG_LIMIT = 200;

/**
 * GET v1/deviceOperations/{id}/scriptruns: a Script operation's runs as its agent reported them,
 * newest first: the exit code (null when the timeout ended it or the agent refused it), the output
 * as the agent cut it, and the agent's reason when it refused to run the script.
 */
export const scriptRunSchema = z.object({
  scriptRunId: z.number().int(),
  received: z.date(),
  started: z.date(),
  durationMs: z.number().int(),
  sha256: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  refused: z.string().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  truncated: z.boolean(),
});
export type ScriptRun = z.infer<typeof scriptRunSchema>;

/** The most runs GET v1/deviceOperations/{id}/scriptruns answers, newest first. */
export const SCRIPT_RUN_LIMIT = 50;

/** POST v1/deviceOperations/clone (spec 002 §5 Clone device operations). */
export const cloneDeviceOperationsSchema = z.object({
  fromDeviceId: guid(DEVICE_OPERATION_MESSAGES.deviceRequired),
  toDeviceId: guid(DEVICE_OPERATION_MESSAGES.cloneTargetRequired),
  /** A comma list of device operation ids. */
  deviceOperationIdsToClone: z.string({ error: DEVICE_OPERATION_MESSAGES.cloneOperationsRequired }).max(40_000),
});
export type CloneDeviceOperations = z.infer<typeof cloneDeviceOperationsSchema>;

export const cloneResultSchema = z.object({ message: z.string(), deviceOperationIds: z.array(z.uuid()) });

/** The most devices one Run Script call queues a script on. */
export const RUN_SCRIPT_MAX_DEVICES = 500;

/**
 * POST v1/deviceOperations/runScript: a Script operation queued on each chosen device, on demand —
 * its device operation of that script (made when it has none), with the timeout given.
 */
export const runScriptSchema = z.object({
  operationId: guid(DEVICE_OPERATION_MESSAGES.operationRequired),
  deviceIds: z
    .array(guid(DEVICE_OPERATION_MESSAGES.deviceRequired))
    .min(1, DEVICE_OPERATION_MESSAGES.deviceRequired)
    .max(RUN_SCRIPT_MAX_DEVICES),
  /** Seconds (1 to SCRIPT_LIMITS.timeoutSecondsMax); the operation's own, or 5 minutes, without it. */
  timeoutSeconds: z.int().min(1).max(SCRIPT_LIMITS.timeoutSecondsMax).optional(),
});
export type RunScript = z.infer<typeof runScriptSchema>;

/** What Run Script did on each device: the run queued, or why not. */
export const scriptDispatchSchema = z.object({
  deviceId: z.uuid(),
  deviceName: z.string(),
  deviceOperationId: z.uuid().nullable(),
  queued: z.boolean(),
  message: z.string(),
});
export type ScriptDispatch = z.infer<typeof scriptDispatchSchema>;
