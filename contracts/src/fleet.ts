/**
 * The device fleet's enumerations and limits (spec 002 §3, §4, §5, §9), shared by the devices,
 * device operations, installations, pending devices, packages and packets areas and the agent.
 * The database stores the ids.
 */
import { HOST_ACCESS_PERMISSION, SCRIPTS_PERMISSION, type Permission } from './permissions.js';

/** Operating system values (spec 002 §3: Unknown 0, WinX64 1, OsxX64 2, LinuxX64 4). */
export const OPERATING_SYSTEMS = { Unknown: 0, WinX64: 1, OsxX64: 2, LinuxX64: 4 } as const;
export type OperatingSystemId = (typeof OPERATING_SYSTEMS)[keyof typeof OPERATING_SYSTEMS];

export const DEVICE_TYPES = { Unknown: 0, Virtual: 1, Physical: 2, Script: 3 } as const;
export const DEVICE_LOGGING_LEVELS = { All: 0, None: 1 } as const;

/** Frequencies of a device operation (spec 002 §3: OnDemand 1, Recurring 2, OneTimeKeepAlive 3). */
export const FREQUENCY_TYPES = { OnDemand: 1, Recurring: 2, OneTimeKeepAlive: 3 } as const;

export const PARAMETER_SOURCES = ['PortalEntry', 'EnvironmentVariable', 'SecuredValue', 'RuntimeConfig'] as const;
export type ParameterSource = (typeof PARAMETER_SOURCES)[number];

/** Operation types, in the spec's order (spec 002 §3), numbered from 1. */
export const OPERATION_TYPES = {
  Authentication: 1,
  Synthetic: 2,
  Availability: 3,
  ApiRead: 4,
  LocalFileRead: 5,
  Metric: 6,
  /** Runs a script of the catalogue installed on the device (a shell or PowerShell file), with its output. */
  Script: 7,
} as const;

/**
 * The operation types that read files or run commands on a device, and the permission each one
 * needs on top of the route's (permissions.ts): Read File, Devices.HostAccess; Script, Devices.Scripts.
 */
export const OPERATION_TYPE_PERMISSIONS: Readonly<Partial<Record<number, Permission>>> = {
  [OPERATION_TYPES.LocalFileRead]: HOST_ACCESS_PERMISSION,
  [OPERATION_TYPES.Script]: SCRIPTS_PERMISSION,
};

export const OPERATION_RESULT_TYPES = { Text: 1, Numeric: 2 } as const;

/** Package types, in the spec's order (spec 002 §3), numbered from 1. */
export const PACKAGE_TYPES = {
  Watcher: 1,
  Command: 2,
  ScriptRunner: 3,
  AgentLogic: 4,
  AgentRunner: 5,
  AgentUpdater: 6,
  SecuredValue: 7,
} as const;
export const EXECUTABLE_TYPES = { Executable: 1, Script: 2 } as const;

/** Package version statuses (spec 002 §3, §4): a version with a pre-release tag is never Latest. */
export const PACKAGE_VERSION_STATUSES = { Latest: 1, Archived: 2, PreRelease: 3 } as const;

/**
 * A package's install status on a device (spec 002 §3 "includes AvailableForInstall"): wanted by
 * the portal (`Pending`, `RemovalPending`), reported by the agent (`Installed`, `Failed`,
 * `Removed`), or nothing chosen (`AvailableForInstall`).
 */
export const INSTALL_STATUSES = {
  AvailableForInstall: 0,
  Pending: 1,
  Installed: 2,
  Failed: 3,
  RemovalPending: 4,
  Removed: 5,
} as const;

/** The "none" version of an installation (spec 002 §7: sent as an empty GUID). */
export const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

/** Tracing options in minutes (spec 002 §9): No Change -1, Disabled 0, 10 min … 24 h. */
export const TRACE_OPTIONS = [
  { minutes: -1, label: 'No Change' },
  { minutes: 0, label: 'Disabled' },
  { minutes: 10, label: '10 minutes' },
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 240, label: '4 hours' },
  { minutes: 480, label: '8 hours' },
  { minutes: 1440, label: '24 hours' },
] as const;

export const FLEET_LIMITS = {
  deviceDescriptionMax: 500,
  heartbeatMax: 999_999_999,
  /** Batches must hold fewer than 25 (spec 002 §5, §9). */
  batchSelectionBelow: 25,
  minimumOperationIntervalSeconds: 30,
  defaultOperationInterval: '00:05:00',
  /** A pending device is inactive when its last ping is older than this (spec 002 §4). */
  inactivePendingDeviceMs: 24 * 60 * 60 * 1000,
} as const;

export const FLEET_POLLING_MS = {
  devices: 30_000,
  pendingDevices: 30_000,
  deviceOperations: 10_000,
  availableOperations: 30_000,
  packets: 10_005,
  packetDrawer: 10_000,
  logsAutoRefresh: 30_000,
} as const;

export const FLEET_MESSAGES = {
  saveDeviceFailed: 'A problem occurred saving the device. Please try again.',
  saveTracingFailed: 'A problem occurred saving the device tracing. Please try again.',
  deleteDeviceRefused: (device: string) => `Could not delete ${device} because it has operations assigned to it.`,
  deviceDeleted: (device: string) => `Successfully deleted ${device}`,
  restartQueued: (device: string) => `Restart queued for ${device}`,
  restartFailed: 'An error occurred trying to send restart signal to device.',
  saveInstallationsFailed: 'A problem occurred saving the installations. Please try again.',
  deviceOperationUpdated: 'Device Operation updated successfully.',
  deviceOperationCreated: 'Device Operation created successfully.',
  deviceOperationDisabled: 'Device Operation disabled successfully.',
  deviceOperationDeleted: 'Device Operation deleted successfully.',
  deviceOperationEnqueued: 'On Demand Device Operation enqueued successfully.',
  deviceOperationDequeued: 'On Demand Device Operation dequeued successfully.',
  deviceOperationsCloned: 'Device Operations Cloned Successfully.',
  saveLocationFailed: 'A problem occurred saving the location. Please try again.',
  uploadFailed: 'A problem occurred uploading the bundle. Please try again.',
  packageVersionDeleted: 'Package version deleted successfully.',
  tooManySelected: 'Please select fewer than 25 Devices.',
  intervalRequired: 'Interval is required',
  noPacket: 'No packet for this entity.',
  noLogs: 'No Logs Found.',
  noData: 'No data reported',
} as const;

/**
 * The heartbeat packet an agent sends for its device: `entityId` is the device id, `Value` the
 * CPU %, `Metrics` holds both figures under these names and `Properties.BlockName` the machine
 * name. The devices grid reads CPU %, Memory % and Age from the device's latest packet.
 * A device operation's result is a packet whose `entityId` is the device operation id.
 */
export const HEARTBEAT_METRICS = { cpuPercent: 'CpuPercent', memoryPercent: 'MemoryPercent' } as const;
