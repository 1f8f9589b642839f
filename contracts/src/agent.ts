import { z } from 'zod';
import { instant } from './fields.js';
import { PARAMETER_SOURCES } from './fleet.js';

/**
 * The machine-facing agent API (`/v1/agent/...`), shared by the server and the agent.
 *
 * An agent enrols with a tenant API token and a random key of its own: until its pending device
 * is promoted it is told `pending`; afterwards the same call returns its device id and a device
 * credential, with which it makes every other call. The credential speaks for that device only.
 */

export const AGENT_LIMITS = {
  /** The agent's own key: 256 random bits, base64url (43 characters); longer keys are accepted. */
  agentKeyMin: 32,
  agentKeyMax: 200,
  machineNameMax: 255,
  /** Log entries and packets per call. */
  batchMax: 100,
  logDetailMax: 8000,
} as const;

/** How often an agent asks for its configuration (restart flag, queued on-demand operations…). */
export const AGENT_CONFIGURATION_POLL_MS = 30_000;
/**
 * How long an agent asks the portal to hold its configuration call until something changes
 * (`Prefer: wait=`, seconds): a queued operation, a restart or an install reaches it at once, and
 * the poll above is its fallback where the portal answers without holding.
 */
export const AGENT_CONFIGURATION_WAIT_SECONDS = 20;
/** How often an agent that is still pending asks again. */
export const AGENT_PENDING_POLL_MS = 30_000;
/**
 * Calls per minute the agent API and packet ingestion take from one tenant API token: a script's
 * packet batches (up to 1,000 packets each), and every agent enrolling with the token asks twice a
 * minute until it is promoted. A device credential may make a tenth of that (an agent makes about
 * five calls a minute), and one address twice that (a site's agents behind one NAT address).
 * MACHINE_RATE_LIMIT_PER_MINUTE sets the token's figure, and the others with it.
 */
export const MACHINE_RATE_LIMIT_PER_MINUTE = 6000;
/** The heartbeat period when the device's heartbeat interval is 0 (not set). */
export const AGENT_DEFAULT_HEARTBEAT_SECONDS = 60;

/**
 * The exit code with which a supervised agent ends when the portal asks it to restart: its service
 * manager starts a new process — systemd and the portal (for its demo agent) at once, the Windows
 * Task Scheduler within a minute, as it restarts a failed task no sooner. 75 is EX_TEMPFAIL of
 * sysexits.h, "try again".
 */
export const AGENT_RESTART_EXIT_CODE = 75;

/** The single executables the portal serves as the agent download. */
export const AGENT_DOWNLOADS = { winX64: 'cfs-agent-win-x64.exe', linuxX64: 'cfs-agent-linux-x64' } as const;
export const AGENT_DOWNLOAD_PATH = '/downloads/agent';

/** The keys an operation parameter of source RuntimeConfig may name; the agent fills them in. */
export const RUNTIME_CONFIG_KEYS = ['MachineName', 'DeviceId', 'PortalUrl', 'DataDirectory'] as const;

export const AGENT_MESSAGES = {
  notADevice: 'Only a device credential may make this call.',
  notAToken: 'Enrolment needs a tenant API token.',
  otherTenant: 'This agent is enrolled with another tenant.',
  wrongCompletionToken: 'The completion token does not match.',
  notQueued: 'This operation is not queued.',
  versionNotWanted: 'This package version is not wanted for this device.',
  fileMissing: 'The file of this package version is missing.',
  downloadNotBuilt: 'This agent download has not been built on this portal (npm run build).',
  notAScript: 'This device operation does not run a script.',
} as const;

export const enrolmentSchema = z.object({
  agentKey: z.string().min(AGENT_LIMITS.agentKeyMin).max(AGENT_LIMITS.agentKeyMax),
  machineName: z.string().trim().min(1).max(AGENT_LIMITS.machineNameMax),
  /** The agent's platform as Node names it (`win32`, `linux`, `darwin`). */
  operatingSystem: z.string().max(100),
  architecture: z.string().max(50),
  agentVersion: z.string().max(50).optional(),
});
export type Enrolment = z.infer<typeof enrolmentSchema>;

export const enrolmentResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending'), pendingDeviceId: z.uuid() }),
  z.object({ status: z.literal('enrolled'), deviceId: z.uuid(), credential: z.string() }),
]);
export type EnrolmentResult = z.infer<typeof enrolmentResultSchema>;

export const agentParameterSchema = z.object({
  name: z.string(),
  source: z.enum(PARAMETER_SOURCES),
  /** PortalEntry and SecuredValue: the value itself (a secured value decrypted for this device); EnvironmentVariable: the variable's name; RuntimeConfig: one of RUNTIME_CONFIG_KEYS. */
  value: z.string().nullable(),
});
export type AgentParameter = z.infer<typeof agentParameterSchema>;

/** What a script's runs may hold and take: its output, each stream cut at this many bytes, and its timeout. */
export const SCRIPT_LIMITS = { outputBytes: 64 * 1024, timeoutSeconds: 300, timeoutSecondsMax: 3600 } as const;
/** The operation parameter that sets a script's timeout, in seconds (SCRIPT_LIMITS.timeoutSeconds without it). */
export const SCRIPT_TIMEOUT_PARAMETER = 'TimeoutSeconds';
/** The scripts an agent runs, by their file's extension: a shell script, or PowerShell on Windows. */
export const SCRIPT_EXTENSIONS = ['.sh', '.ps1'] as const;

/**
 * What a Script operation runs: the device's installed version of the operation's package (its
 * file in the agent's `packages/` folder), with the portal's Ed25519 signature of `scriptSigningText`.
 * The agent runs it only when the signature holds under the key it pinned, the file on disk has
 * this SHA-256, and its own allow list names the package (agent/src/scripts.ts).
 */
export const agentScriptSchema = z.object({
  packageId: z.uuid(),
  packageName: z.string(),
  packageVersionId: z.uuid(),
  fileName: z.string(),
  sha256: z.string(),
  signature: z.string(),
});
export type AgentScript = z.infer<typeof agentScriptSchema>;

/**
 * The text the portal signs for a script: whose it is (the package, by id and by the name the
 * agent's allow list names it by), what it is (version and file) and what it holds (its SHA-256).
 * A script of one package cannot be passed off as another's without breaking the signature.
 */
export function scriptSigningText(script: Omit<AgentScript, 'signature'>): string {
  return [
    'cfs-script-v1',
    script.packageId,
    script.packageName,
    script.packageVersionId,
    script.fileName,
    script.sha256.toLowerCase(),
  ].join('\n');
}

export const SCRIPT_MESSAGES = {
  notInstalled: 'The script package is not installed on this device: install a version of it first.',
  noScriptFile: `A Script operation runs a package whose file is a script (${SCRIPT_EXTENSIONS.join(' or ')}).`,
} as const;

export const agentOperationSchema = z.object({
  deviceOperationId: z.uuid(),
  operationId: z.uuid(),
  operationName: z.string(),
  label: z.string(),
  operationTypeId: z.number().int(),
  operationResultTypeId: z.number().int(),
  frequencyTypeId: z.number().int(),
  intervalSeconds: z.number().int(),
  /** Set while an OnDemand operation is queued: the agent runs it, then completes it with this. */
  completionToken: z.uuid().nullable(),
  parameters: z.array(agentParameterSchema),
  /** Changes whenever the portal saves the operation: a OneTimeKeepAlive operation runs again after a change. */
  modified: z.date(),
  /** A Script operation's script, signed; null for the other types, and while its package is not installed. */
  script: agentScriptSchema.nullable(),
});
export type AgentOperation = z.infer<typeof agentOperationSchema>;

export const agentPackageSchema = z.object({
  packageId: z.uuid(),
  packageName: z.string(),
  executableName: z.string().nullable(),
  packageVersionId: z.uuid(),
  version: z.string(),
  fileName: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  /** Absolute URL of the file, to fetch with the device credential. */
  downloadUrl: z.string(),
  installStatusId: z.number().int(),
  installedPackageVersionId: z.uuid().nullable(),
});
export type AgentPackage = z.infer<typeof agentPackageSchema>;

/**
 * The agent itself is a package: the one shared catalogue package of type AgentRunner, whose
 * versions are the agent's bundle (`cfs-agent.cjs`, the same file on every platform; a single
 * executable runs the newest one its machine accepted). The portal registers the agent it was
 * built with as a version of it when it starts.
 */
export const AGENT_RELEASE_PACKAGE = 'CFS Agent Runner';
export const AGENT_RELEASE_FILE = 'cfs-agent.cjs';

/**
 * A version of the agent the portal wants this device to run, offered while it runs another: its
 * file (fetched with the device credential and checked against the SHA-256), the portal's Ed25519
 * signature of `agentReleaseSigningText` under the key the agent pinned, and the minutes the new
 * version has to reach the portal before the agent goes back to the version it ran.
 */
export const agentReleaseSchema = z.object({
  packageVersionId: z.uuid(),
  version: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  downloadUrl: z.string(),
  rollbackMinutes: z.number().int(),
  signature: z.string(),
});
export type AgentRelease = z.infer<typeof agentReleaseSchema>;

export function agentReleaseSigningText(
  release: Pick<AgentRelease, 'packageVersionId' | 'version' | 'sha256'>,
): string {
  return ['cfs-agent-release-v1', release.packageVersionId, release.version, release.sha256.toLowerCase()].join('\n');
}

/** What became of an update, as the agent tells it: started, running the new version, gone back, or not taken. */
export const AGENT_UPDATE_OUTCOMES = ['Updating', 'Updated', 'RolledBack', 'Refused'] as const;
export type AgentUpdateOutcome = (typeof AGENT_UPDATE_OUTCOMES)[number];

/** POST /v1/agent/version: the version the agent runs, told at the start of each session and with each update's outcome. */
export const agentVersionReportSchema = z.object({
  agentVersion: z.string().trim().min(1).max(50),
  update: z
    .object({
      packageVersionId: z.uuid(),
      outcome: z.enum(AGENT_UPDATE_OUTCOMES),
      detail: z.string().max(AGENT_LIMITS.logDetailMax).optional(),
    })
    .optional(),
});
export type AgentVersionReport = z.infer<typeof agentVersionReportSchema>;

export const agentConfigurationSchema = z.object({
  deviceId: z.uuid(),
  name: z.string(),
  heartbeatIntervalSeconds: z.number().int(),
  /** The device's logging level (spec 002 §3 deviceLoggingLevelId): `None` sends no device logs. */
  loggingLevel: z.enum(['All', 'None']),
  traceExpiration: z.date().nullable(),
  /** Whether tracing is on now (traceExpiration in the future). */
  tracing: z.boolean(),
  restartAgent: z.boolean(),
  operations: z.array(agentOperationSchema),
  /**
   * The package versions the portal wants on the device. An installed package not listed (set to
   * none: Removal Pending) is removed by the agent, which then reports it Removed.
   */
  packages: z.array(agentPackageSchema),
  /**
   * The portal's public key for scripts (Ed25519, SPKI PEM): the agent keeps the first it is given
   * and checks every script's signature with that one, whatever later answers say.
   */
  scriptKey: z.string(),
  /** The agent version the portal wants the device to run, while it runs another; null otherwise. */
  agentRelease: agentReleaseSchema.nullable(),
});
export type AgentConfiguration = z.infer<typeof agentConfigurationSchema>;

/**
 * POST /v1/agent/operations/{id}/scriptruns: how a script ran on the device — its exit code (null
 * when it did not end by itself), whether its timeout ended it, its output (each stream cut at
 * SCRIPT_LIMITS.outputBytes), or why the agent refused to run it.
 */
export const agentScriptRunSchema = z.object({
  started: instant(),
  durationMs: z.int().min(0),
  sha256: z.string().max(64).nullable(),
  exitCode: z.int().nullable(),
  timedOut: z.boolean(),
  refused: z.string().max(1000).nullable(),
  stdout: z.string().max(SCRIPT_LIMITS.outputBytes),
  stderr: z.string().max(SCRIPT_LIMITS.outputBytes),
  truncated: z.boolean(),
});
export type AgentScriptRun = z.infer<typeof agentScriptRunSchema>;

export const agentLogEntrySchema = z.object({
  created: instant().optional(),
  entryType: z.string().trim().min(1).max(50),
  detail: z.string().max(AGENT_LIMITS.logDetailMax),
});
export type AgentLogEntry = z.infer<typeof agentLogEntrySchema>;

export const agentLogBatchSchema = z.object({
  entries: z.array(agentLogEntrySchema).min(1).max(AGENT_LIMITS.batchMax),
});

export const operationCompletionSchema = z.object({ completionToken: z.uuid() });

export const INSTALL_REPORT_STATUSES = ['Installed', 'Failed', 'Removed'] as const;
export const installationReportSchema = z.object({
  packageVersionId: z.uuid().nullable(),
  status: z.enum(INSTALL_REPORT_STATUSES),
  detail: z.string().max(AGENT_LIMITS.logDetailMax).optional(),
});
export type InstallationReport = z.infer<typeof installationReportSchema>;

/** What one inventory report may hold. */
export const INVENTORY_LIMITS = { software: 20_000, disks: 64, text: 300 } as const;

export const INVENTORY_MESSAGES = {
  softwareNamesUnique: 'Each software name may appear once in a report.',
} as const;

const inventoryText = z.string().max(INVENTORY_LIMITS.text);

/**
 * POST /v1/agent/inventory: the machine as its agent sees it, reported at enrolment and daily —
 * hardware, the operating system (with its pending patches where the system tells them), and the
 * installed software by name (one entry a name: on Debian, a multi-arch package carries its
 * architecture, `libc6:amd64`).
 */
export const agentInventorySchema = z.object({
  hardware: z.object({
    cpuModel: inventoryText,
    cores: z.int().min(1).max(65_536),
    memoryBytes: z.int().min(0),
    disks: z.array(z.object({ name: inventoryText, sizeBytes: z.int().min(0) })).max(INVENTORY_LIMITS.disks),
  }),
  os: z.object({
    name: inventoryText,
    version: inventoryText,
    build: inventoryText,
    pendingPatches: z.int().min(0).nullable(),
  }),
  software: z
    .array(z.object({ name: inventoryText.min(1), version: inventoryText, publisher: inventoryText.nullable() }))
    .max(INVENTORY_LIMITS.software)
    .superRefine((software, context) => {
      const seen = new Set<string>();
      software.forEach((item, index) => {
        if (seen.has(item.name))
          context.addIssue({ code: 'custom', path: [index, 'name'], message: INVENTORY_MESSAGES.softwareNamesUnique });
        seen.add(item.name);
      });
    }),
});
export type AgentInventory = z.infer<typeof agentInventorySchema>;
