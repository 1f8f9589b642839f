import type {
  AgentLogEntry,
  AgentScriptRun,
  Enrolment,
  EnrolmentResult,
  InstallationReport,
} from '@cfs/contracts/agent';
import { AGENT_MESSAGES } from '@cfs/contracts/agent';
import { INSTALL_STATUSES, OPERATION_TYPES } from '@cfs/contracts/fleet';
import { recordAudit, type AuditActor } from '../../audit/audit.js';
import { generateDeviceCredential, hashCredential, type MachineCaller } from '../../auth/machine-callers.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { fleetWriters } from '../../engines/fleet/owner-ports.js';
import { BadRequestError, ConflictError, HttpError, NotFoundError } from '../../http/errors.js';

export type TokenCaller = Extract<MachineCaller, { kind: 'token' }>;
export type DeviceCaller = Extract<MachineCaller, { kind: 'device' }>;

/** Who a device's own writes are recorded as in the audit trail. */
const deviceActor = (device: DeviceCaller): AuditActor => ({ userId: null, userName: `device ${device.deviceId}` });
const tokenActor = (caller: TokenCaller): AuditActor => ({ userId: null, userName: `token ${caller.tokenGrantId}` });

/**
 * POST /v1/agent/enrol. The agent's key is its identity: only its SHA-256 is stored. When a device
 * of the token's tenant holds that key (it was promoted), a new device credential is issued, which
 * replaces any earlier one: an agent that lost its credential file, or was copied, gets in by
 * enrolling again and the other copy is shut out. Otherwise the pending device is created or its
 * last ping refreshed.
 */
export async function enrol(
  db: Db,
  caller: TokenCaller,
  input: Enrolment,
  ipAddress: string,
): Promise<EnrolmentResult> {
  const keyHash = hashCredential(input.agentKey);
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, caller.scope);
    const device = await tx
      .selectFrom('device')
      .select(['device_id', 'enabled', 'tenant_id', 'name'])
      .where('agent_key_hash', '=', keyHash)
      .where('is_deleted', '=', false)
      .forUpdate()
      .executeTakeFirst();
    if (device) {
      if (!device.enabled) throw new HttpError(401, 'This device is disabled.');
      const { credential, hash } = generateDeviceCredential();
      await fleetWriters().devices.update(trx, caller.scope, device.device_id, {
        credential_hash: hash,
        token_grant_id: caller.tokenGrantId,
        machine_name: input.machineName,
        architecture: input.architecture,
        ip_address: ipAddress,
        agent_version: input.agentVersion ?? null,
        last_contact: new Date(),
      });
      await recordAudit(trx, tokenActor(caller), {
        entityType: 'device',
        entityId: device.device_id,
        tenantId: device.tenant_id,
        action: 'issue-credential',
        changes: { machineName: input.machineName },
      });
      return { status: 'enrolled', deviceId: device.device_id, credential };
    }
    const now = new Date();
    const pending = await fleetWriters().pendingDevices.enrol(trx, caller.scope, {
      tenant_id: caller.tenantId,
      token_grant_id: caller.tokenGrantId,
      agent_key_hash: keyHash,
      machine_name: input.machineName,
      operating_system: input.operatingSystem,
      architecture: input.architecture,
      ip_address: ipAddress,
      created: now,
      last_ping: now,
    });
    if (!pending) throw new ConflictError(AGENT_MESSAGES.otherTenant);
    // Recorded once, when the agent first enrols; later enrolments only refresh its last ping.
    if (pending.created.getTime() === now.getTime()) {
      await recordAudit(trx, tokenActor(caller), {
        entityType: 'pendingDevice',
        entityId: pending.pending_device_id,
        tenantId: caller.tenantId,
        action: 'enrol',
        changes: { machineName: input.machineName, ipAddress },
      });
    }
    return { status: 'pending', pendingDeviceId: pending.pending_device_id };
  });
}

/** POST /v1/agent/restart/acknowledge: the agent is about to restart, so the flag is cleared. */
export async function acknowledgeRestart(db: Db, device: DeviceCaller): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (await fleetWriters().devices.clearRestartFlag(trx, device.scope, device.deviceId))
      await recordAudit(trx, deviceActor(device), {
        entityType: 'device',
        entityId: device.deviceId,
        tenantId: device.tenantId,
        action: 'restart-acknowledged',
      });
  });
}

const logRows = (entries: readonly AgentLogEntry[], now: Date) =>
  entries.map((entry) => ({
    created: entry.created && entry.created.getTime() <= now.getTime() ? entry.created : now,
    entry_type: entry.entryType,
    detail: entry.detail,
  }));

/** POST /v1/agent/logs: the device's own log entries. */
export async function addDeviceLogs(db: Db, device: DeviceCaller, entries: readonly AgentLogEntry[]): Promise<void> {
  const rows = logRows(entries, new Date()).map((row) => ({
    ...row,
    tenant_id: device.tenantId,
    device_id: device.deviceId,
  }));
  await db.transaction().execute((trx) => scoped(trx, device.scope).insertInto('device_log', rows).execute());
}

/** The device operation, when it is one of this device's; another device's is simply not there. */
async function ownOperation(db: Db, device: DeviceCaller, deviceOperationId: string) {
  const row = await scoped(db, device.scope)
    .selectFrom('device_operation')
    .select(['device_operation_id', 'frequency_type_id', 'completion_token', 'operation_complete'])
    .where('device_operation_id', '=', deviceOperationId)
    .where('device_id', '=', device.deviceId)
    .where('is_deleted', '=', false)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('The device operation');
  return row;
}

/** POST /v1/agent/operations/{id}/logs: entries of one of the device's own operations. */
export async function addOperationLogs(
  db: Db,
  device: DeviceCaller,
  deviceOperationId: string,
  entries: readonly AgentLogEntry[],
): Promise<void> {
  await ownOperation(db, device, deviceOperationId);
  const rows = logRows(entries, new Date()).map((row) => ({
    ...row,
    tenant_id: device.tenantId,
    device_operation_id: deviceOperationId,
  }));
  await db.transaction().execute((trx) => scoped(trx, device.scope).insertInto('operation_log', rows).execute());
}

/**
 * POST /v1/agent/operations/{id}/scriptruns: how one of the device's Script operations ran (or why
 * the agent refused to run it), kept with the operation and in the audit trail, whose entry names
 * the exit code or the refusal.
 */
export async function recordScriptRun(
  db: Db,
  device: DeviceCaller,
  deviceOperationId: string,
  run: AgentScriptRun,
): Promise<void> {
  await ownOperation(db, device, deviceOperationId);
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, device.scope);
    const operation = await tx
      .selectFrom('device_operation as d')
      .innerJoin('operation as o', 'o.operation_id', 'd.operation_id')
      .select('o.operation_type_id')
      .where('d.device_operation_id', '=', deviceOperationId)
      .executeTakeFirstOrThrow();
    if (operation.operation_type_id !== OPERATION_TYPES.Script)
      throw new BadRequestError(AGENT_MESSAGES.notAScript, { deviceOperationId: [AGENT_MESSAGES.notAScript] });
    await tx
      .insertInto('script_run', {
        device_operation_id: deviceOperationId,
        device_id: device.deviceId,
        tenant_id: device.tenantId,
        received: new Date(),
        started: run.started,
        duration_ms: run.durationMs,
        sha256: run.sha256,
        exit_code: run.exitCode,
        timed_out: run.timedOut,
        refused: run.refused,
        stdout: run.stdout,
        stderr: run.stderr,
        truncated: run.truncated,
      })
      .execute();
    await recordAudit(trx, deviceActor(device), {
      entityType: 'deviceOperation',
      entityId: deviceOperationId,
      tenantId: device.tenantId,
      action: 'run script',
      changes: {
        sha256: run.sha256,
        ...(run.refused === null ? { exitCode: run.exitCode, timedOut: run.timedOut } : { refused: run.refused }),
      },
    });
  });
}

/**
 * POST /v1/agent/operations/{id}/complete: a queued OnDemand operation has run (spec 002 §4: it is
 * Queued while operationComplete is false and a completion token exists). Only the token the
 * agent was given completes it, so a run of an operation that was dequeued and queued again since
 * does not complete the new request.
 */
export async function completeOperation(
  db: Db,
  device: DeviceCaller,
  deviceOperationId: string,
  completionToken: string,
): Promise<void> {
  await ownOperation(db, device, deviceOperationId);
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, device.scope);
    const row = await tx
      .selectFrom('device_operation')
      .select(['completion_token', 'operation_complete'])
      .where('device_operation_id', '=', deviceOperationId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (!row.completion_token || row.operation_complete)
      throw new BadRequestError(AGENT_MESSAGES.notQueued, { completionToken: [AGENT_MESSAGES.notQueued] });
    if (row.completion_token !== completionToken)
      throw new BadRequestError(AGENT_MESSAGES.wrongCompletionToken, {
        completionToken: [AGENT_MESSAGES.wrongCompletionToken],
      });
    await fleetWriters().deviceOperations.complete(trx, device.scope, deviceOperationId);
    await recordAudit(trx, deviceActor(device), {
      entityType: 'deviceOperation',
      entityId: deviceOperationId,
      tenantId: device.tenantId,
      action: 'complete',
    });
  });
}

const REPORTED_STATUS = {
  Installed: INSTALL_STATUSES.Installed,
  Failed: INSTALL_STATUSES.Failed,
  Removed: INSTALL_STATUSES.Removed,
} as const;

/** POST /v1/agent/installations/{packageId}: the outcome of installing (or removing) a package. */
export async function reportInstallation(
  db: Db,
  device: DeviceCaller,
  packageId: string,
  report: InstallationReport,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, device.scope);
    const row = await tx
      .selectFrom('device_installation')
      .select(['package_version_id', 'install_status_id'])
      .where('device_id', '=', device.deviceId)
      .where('package_id', '=', packageId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new NotFoundError('The installation');
    if (report.status !== 'Removed' && report.packageVersionId !== row.package_version_id) {
      throw new BadRequestError(AGENT_MESSAGES.versionNotWanted, {
        packageVersionId: [AGENT_MESSAGES.versionNotWanted],
      });
    }
    const statusId = REPORTED_STATUS[report.status];
    await fleetWriters().devices.reportInstallation(
      trx,
      device.scope,
      { deviceId: device.deviceId, packageId },
      {
        install_status_id: statusId,
        installed_package_version_id:
          report.status === 'Installed' ? report.packageVersionId : report.status === 'Removed' ? null : undefined,
        status_detail: report.detail ?? null,
        modified: new Date(),
        modified_by: deviceActor(device).userName,
      },
    );
    await recordAudit(trx, deviceActor(device), {
      entityType: 'deviceInstallation',
      entityId: `${device.deviceId}/${packageId}`,
      tenantId: device.tenantId,
      action: 'report',
      changes: {
        installStatus: { from: row.install_status_id, to: statusId },
        packageVersionId: report.packageVersionId,
      },
    });
  });
}
