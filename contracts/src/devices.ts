import { z } from 'zod';
import {
  DEVICE_LOGGING_LEVELS,
  DEVICE_TYPES,
  EMPTY_GUID,
  FLEET_LIMITS,
  INSTALL_STATUSES,
  TRACE_OPTIONS,
} from './fleet.js';
import { agentInventorySchema } from './agent.js';
import { guid } from './fields.js';
import { SHELL_MESSAGES } from './messages.js';

/**
 * Devices, their installations and logs (spec 002 §2 Devices, §3 Device, Device installation,
 * Log entry, §5 Device, §7 Devices and installations). The spec names the rules, not their
 * wording; these texts are ours.
 */
export const DEVICE_MESSAGES = {
  nameRequired: 'Please enter a name.',
  descriptionTooLong: `The description can have at most ${FLEET_LIMITS.deviceDescriptionMax} characters.`,
  heartbeatRange: `The heartbeat interval must be a number from 0 to ${FLEET_LIMITS.heartbeatMax} seconds.`,
  tenantRequired: SHELL_MESSAGES.tenantRequired,
  subscriptionRequired: SHELL_MESSAGES.subscriptionRequired,
  subscriptionOfTenant: 'Please choose a subscription of the chosen tenant.',
  tenantFixed: 'A device stays in the tenant it enrolled with; choose one of its subscriptions.',
  locationOfTenant: "Please choose a location of the device's tenant.",
  traceOptionInvalid: 'Please choose one of the tracing options.',
  versionOfPackage: 'Please choose a version of this package.',
  packageNotAvailable: 'This package is not available to the device.',
  saved: 'Device saved.',
  tracingSaved: 'Device tracing saved.',
  installationsSaved: 'Installations saved.',
  deleteConfirm: (device: string) => `Are you sure you want to delete ${device}?`,
  downloadAgent: 'Download Windows Agent',
  installAgent: 'Install Agent',
} as const;

const enumValue = <T extends Record<string, number>>(values: T) =>
  z
    .number()
    .int()
    .refine((value) => Object.values(values).includes(value));

export const deviceLocationSchema = z.object({ locationId: z.uuid(), name: z.string() });

export const deviceSchema = z.object({
  deviceId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  tags: z.string().nullable(),
  deviceTypeId: z.number().int(),
  locationId: z.uuid().nullable(),
  location: deviceLocationSchema.nullable().optional(),
  operatingSystemId: z.number().int(),
  tenantId: z.uuid(),
  subscriptionId: z.uuid(),
  deviceLoggingLevelId: z.number().int(),
  heartbeatInterval: z.number().int(),
  enabled: z.boolean(),
  restartAgentFlag: z.boolean(),
  traceMinutes: z.number().int(),
  traceExpiration: z.date().nullable(),
  isDeleted: z.boolean(),
  machineName: z.string().nullable(),
  agentVersion: z.string().nullable(),
  lastContact: z.date().nullable(),
  /** Live values from the device's latest packet (its heartbeat); null when it has sent none. */
  cpuPercent: z.number().nullable(),
  memoryPercent: z.number().nullable(),
  packetTimestamp: z.date().nullable(),
  /** Last contact within two heartbeat intervals (contracts/home ONLINE_MISSED_HEARTBEATS). */
  isOnline: z.boolean(),
});
export type Device = z.infer<typeof deviceSchema>;

/** POST v1/devices/{id}: the fields a user edits (spec 002 §5 Device). */
export const deviceInputSchema = z.object({
  name: z
    .string({ error: DEVICE_MESSAGES.nameRequired })
    .trim()
    .min(1, DEVICE_MESSAGES.nameRequired)
    .max(200, DEVICE_MESSAGES.nameRequired),
  // Left out, the description, tags and location are cleared.
  description: z
    .string()
    .max(FLEET_LIMITS.deviceDescriptionMax, DEVICE_MESSAGES.descriptionTooLong)
    .nullable()
    .default(null),
  tags: z.string().max(2000).nullable().default(null),
  deviceTypeId: enumValue(DEVICE_TYPES).optional(),
  locationId: guid(DEVICE_MESSAGES.locationOfTenant).nullable().default(null),
  deviceLoggingLevelId: enumValue(DEVICE_LOGGING_LEVELS).optional(),
  heartbeatInterval: z
    .number({ error: DEVICE_MESSAGES.heartbeatRange })
    .int(DEVICE_MESSAGES.heartbeatRange)
    .min(0, DEVICE_MESSAGES.heartbeatRange)
    .max(FLEET_LIMITS.heartbeatMax, DEVICE_MESSAGES.heartbeatRange),
  enabled: z.boolean().optional(),
  tenantId: guid(DEVICE_MESSAGES.tenantRequired),
  subscriptionId: guid(DEVICE_MESSAGES.subscriptionRequired),
});
export type DeviceInput = z.infer<typeof deviceInputSchema>;

/** POST v1/devices/{id}/toggleTrace/{minutes}: one of the spec's options (§9). */
export const traceMinutesParam = z.coerce
  .number({ error: DEVICE_MESSAGES.traceOptionInvalid })
  .int(DEVICE_MESSAGES.traceOptionInvalid)
  .refine((minutes) => TRACE_OPTIONS.some((option) => option.minutes === minutes), DEVICE_MESSAGES.traceOptionInvalid);

export const logEntrySchema = z.object({
  logEntryId: z.number().int(),
  created: z.date(),
  entryType: z.string(),
  detail: z.string(),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

/** The newest entries GET v1/devices/{id}/logs answers. */
export const DEVICE_LOGS_LIMIT = 500;

/** GET v1/devices/GetPackageInstallsWithVersions(deviceId={id}): one row per package the device may install. */
export const deviceInstallationSchema = z.object({
  installPackage: z.object({ packageId: z.uuid(), name: z.string(), description: z.string().nullable() }),
  packageName: z.string(),
  installStatus: z.number().int(),
  /** The version wanted (or installed); null when none is chosen. */
  packageVersionId: z.uuid().nullable(),
  installedPackageVersionId: z.uuid().nullable(),
  packageVersions: z.array(
    z.object({
      packageVersionId: z.uuid(),
      version: z.string(),
      label: z.string(),
      packageVersionStatusId: z.number().int(),
    }),
  ),
});
export type DeviceInstallation = z.infer<typeof deviceInstallationSchema>;

/** POST v1/deviceInstallations/{deviceId}/packages: `packageVersionId` EMPTY_GUID means none. */
export const installationChoiceSchema = z.object({
  packageId: guid(),
  deviceId: guid(),
  packageVersionId: guid(),
});
export const installationChoicesSchema = z.array(installationChoiceSchema).max(1000);
export type InstallationChoice = z.infer<typeof installationChoiceSchema>;

export const NO_VERSION = EMPTY_GUID;

export const INSTALL_STATUS_LABELS: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(INSTALL_STATUSES).map(([label, id]) => [id, label.replace(/([a-z])([A-Z])/g, '$1 $2')]),
);

/**
 * GET /api/{tenantId}/settings (spec 002 §2 Welcome page), with what the Welcome page's install
 * commands name: the portal's public address and the Linux and Windows agents' downloads.
 */
export const tenantSettingsSchema = z.object({
  agentDownloadUrl: z.string().nullable(),
  agentInstall: z.object({ portalUrl: z.string(), linuxDownloadUrl: z.string(), windowsDownloadUrl: z.string() }),
});
export type TenantSettings = z.infer<typeof tenantSettingsSchema>;

/**
 * GET /v1/devices/{id}/inventory: the device's inventory as its agent last reported it (all null
 * and empty before its first report), its software by name, and its latest changes, newest first.
 */
export const deviceInventorySchema = z.object({
  reported: z.date().nullable(),
  changed: z.date().nullable(),
  hardware: agentInventorySchema.shape.hardware.nullable(),
  os: agentInventorySchema.shape.os.nullable(),
  software: z.array(z.object({ name: z.string(), version: z.string(), publisher: z.string().nullable() })),
  changes: z.array(
    z.object({
      at: z.date(),
      item: z.enum(['software', 'os', 'hardware']),
      name: z.string(),
      change: z.enum(['added', 'removed', 'changed']),
      from: z.string().nullable(),
      to: z.string().nullable(),
    }),
  ),
});
export type DeviceInventory = z.infer<typeof deviceInventorySchema>;
