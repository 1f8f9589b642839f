import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  agentReleaseSigningText,
  type AgentRelease,
  type AgentUpdateOutcome,
  type AgentVersionReport,
} from '@cfs/contracts/agent';
import {
  AGENT_UPDATE_LIMITS,
  AGENT_UPDATE_MESSAGES,
  type AgentUpdatePolicy,
  type AgentUpdatePolicyInput,
} from '@cfs/contracts/agent-updates';
import { INSTALL_STATUSES, PACKAGE_TYPES } from '@cfs/contracts/fleet';
import { recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import { ALL_TENANTS, type TenantScope } from '../../auth/tenant-scope.js';
import type { ScriptSigner } from '../../crypto/script-signer.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { fleetWriters } from '../../engines/fleet/owner-ports.js';
import { defineTask } from '../../engines/jobs/task.js';
import { BadRequestError, NotFoundError } from '../../http/errors.js';
import type { DeviceCaller } from './commands.js';

/**
 * The agent's self-update, the portal's side (docs/features/device-agent.md "Updates"). A tenant's
 * devices run the version its policy names (the Latest of the shared agent package, or a pinned
 * one). A new version goes first to the devices whose rollout bucket (0–99, from the device id) is
 * below the policy's percentage; the rest follow once a device has run it for the rollback
 * minutes without any device going back. An agent that goes back (or refuses the version), or does
 * not report within the rollback minutes, halts that version's rollout in its tenant.
 */

/** What the portal waits past the rollback minutes before it calls an updating agent silent: its own restart and a configuration poll. */
const SILENCE_GRACE_MS = 2 * 60_000;
const DEVICE_ACTOR = (deviceId: string) => ({ userId: null, userName: `device ${deviceId}` });

/** A device's place in a staged rollout, 0–99: the same for the device on every instance and every call. */
export function rolloutBucket(deviceId: string): number {
  return createHash('sha256').update(deviceId.toLowerCase()).digest().readUInt32BE(0) % 100;
}

/** The shared agent package's versions, as a query to go on from (aliased `v`). */
function agentVersions(db: Db | Tx, scope: TenantScope) {
  return scoped(db, scope)
    .selectFrom('package as p')
    .innerJoin('package_version as v', 'v.package_id', 'p.package_id')
    .where('p.tenant_id', 'is', null)
    .where('p.package_type_id', '=', PACKAGE_TYPES.AgentRunner);
}

/** A tenant's version to run, as its devices' configuration calls read it (`AgentReleaseTargets`). */
interface TenantTarget {
  packageVersionId: string;
  version: string;
  sha256: string;
  size: number;
  rolloutPercent: number;
  rollbackMinutes: number;
  firstUpdated: Date | null;
  halted: Date | null;
}

/**
 * Each tenant's version to run, kept for a few seconds: every configuration call of every agent
 * reads it, and it changes only when a policy, a rollout or the agent package does — which the
 * database announces (`*` on agent_config, migration 0050), and the announcement clears it
 * (`clear`) before the held calls are answered. One per instance; `ttlMs` 0 keeps nothing.
 */
export class AgentReleaseTargets {
  private readonly kept = new Map<string, { until: number; target: Promise<TenantTarget | undefined> }>();

  constructor(private readonly ttlMs = 5_000) {}

  get(db: Db, scope: TenantScope, tenantId: string): Promise<TenantTarget | undefined> {
    const now = Date.now();
    const kept = this.kept.get(tenantId);
    if (kept && kept.until > now) return kept.target;
    const target = tenantTarget(db, scope, tenantId);
    if (this.ttlMs > 0) {
      this.kept.set(tenantId, { until: now + this.ttlMs, target });
      // A failed read is not kept.
      target.catch(() => this.kept.delete(tenantId));
    }
    return target;
  }

  clear(): void {
    this.kept.clear();
  }
}

async function tenantTarget(db: Db, scope: TenantScope, tenantId: string): Promise<TenantTarget | undefined> {
  const row = await agentVersions(db, scope)
    .leftJoin('agent_update_policy as pol', (join) => join.on('pol.tenant_id', '=', tenantId))
    .leftJoin('package_latest_version as l', 'l.package_id', 'p.package_id')
    .leftJoin('agent_rollout as r', (join) =>
      join.onRef('r.package_version_id', '=', 'v.package_version_id').on('r.tenant_id', '=', tenantId),
    )
    .select([
      'v.package_version_id',
      'v.version',
      'v.file_sha256',
      'v.file_size',
      'pol.rollout_percent',
      'pol.rollback_minutes',
      'r.first_updated',
      'r.halted',
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('pol.version', 'is', null), eb('v.package_version_id', '=', eb.ref('l.package_version_id'))]),
        eb('v.version', '=', eb.ref('pol.version')),
      ]),
    )
    .executeTakeFirst();
  return (
    row && {
      packageVersionId: row.package_version_id,
      version: row.version,
      sha256: row.file_sha256.toLowerCase(),
      size: Number(row.file_size),
      rolloutPercent: row.rollout_percent ?? AGENT_UPDATE_LIMITS.defaultRolloutPercent,
      rollbackMinutes: row.rollback_minutes ?? AGENT_UPDATE_LIMITS.defaultRollbackMinutes,
      firstUpdated: row.first_updated,
      halted: row.halted,
    }
  );
}

/**
 * The version this device is to move to, signed, or null: none while it runs the tenant's version
 * already (`runningVersion`, its Agent Version), while the rollout of that version is halted in its
 * tenant or this device went back from it, and while the device waits for the rollout's second
 * stage. A device that runs its tenant's version costs no query beyond the kept target.
 */
export async function agentReleaseOffer(
  db: Db,
  signer: ScriptSigner,
  publicUrl: string,
  device: DeviceCaller,
  runningVersion: string | null,
  now: Date,
  targets = new AgentReleaseTargets(0),
): Promise<AgentRelease | null> {
  const target = await targets.get(db, device.scope, device.tenantId);
  if (!target || target.version === runningVersion || target.halted !== null) return null;
  const firstStage = rolloutBucket(device.deviceId) < target.rolloutPercent;
  const secondStageOpen =
    target.firstUpdated !== null && target.firstUpdated.getTime() + target.rollbackMinutes * 60_000 <= now.getTime();
  if (!firstStage && !secondStageOpen) return null;
  const last = await scoped(db, device.scope)
    .selectFrom('device_agent_update')
    .select('outcome')
    .where('device_id', '=', device.deviceId)
    .where('package_version_id', '=', target.packageVersionId)
    .executeTakeFirst();
  if (last?.outcome === 'RolledBack' || last?.outcome === 'Refused' || last?.outcome === 'Silent') return null;
  const release = { packageVersionId: target.packageVersionId, version: target.version, sha256: target.sha256 };
  return {
    ...release,
    size: target.size,
    downloadUrl: `${publicUrl}/v1/agent/packageversions/${target.packageVersionId}/download`,
    rollbackMinutes: target.rollbackMinutes,
    signature: signer.sign(agentReleaseSigningText(release)),
  };
}

/** A version of the shared agent package, by id: any device may download those. */
export function agentVersionFile(db: Db, scope: TenantScope, packageVersionId: string) {
  return agentVersions(db, scope)
    .select(['v.file_sha256', 'v.file_name'])
    .where('v.package_version_id', '=', packageVersionId)
    .executeTakeFirst();
}

const INSTALL_STATUS_OF: Record<AgentUpdateOutcome | 'Running', number> = {
  Running: INSTALL_STATUSES.Installed,
  Updated: INSTALL_STATUSES.Installed,
  Updating: INSTALL_STATUSES.Pending,
  RolledBack: INSTALL_STATUSES.Failed,
  Refused: INSTALL_STATUSES.Failed,
};

/**
 * POST /v1/agent/version: the version the agent runs (the device's Agent Version, and its
 * installation of the agent package, which the version report reads), and what became of an
 * update. An agent that runs the version it was updating to has updated, whether or not its
 * Updated report arrived; one that went back or refused halts the version's rollout in its tenant.
 */
export async function recordAgentVersion(db: Db, device: DeviceCaller, report: AgentVersionReport): Promise<void> {
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    const versions = await agentVersions(trx, device.scope)
      .select(['p.package_id', 'v.package_version_id', 'v.version'])
      .where((eb) =>
        eb.or([
          eb('v.version', '=', report.agentVersion),
          ...(report.update ? [eb('v.package_version_id', '=', report.update.packageVersionId)] : []),
        ]),
      )
      .execute();
    const running = versions.find((row) => row.version === report.agentVersion);
    const offered = report.update && versions.find((row) => row.package_version_id === report.update?.packageVersionId);
    if (report.update && !offered)
      throw new BadRequestError(AGENT_UPDATE_MESSAGES.unknownVersion, {
        'update.packageVersionId': [AGENT_UPDATE_MESSAGES.unknownVersion],
      });
    const writers = fleetWriters().devices;
    await writers.update(trx, device.scope, device.deviceId, { agent_version: report.agentVersion });
    const tx = scoped(trx, device.scope);
    const last = await tx
      .selectFrom('device_agent_update')
      .select(['package_version_id', 'outcome'])
      .where('device_id', '=', device.deviceId)
      .forUpdate()
      .executeTakeFirst();
    // Running the version it was updating to (or was called silent about) is an update done.
    const outcome: AgentUpdateOutcome | 'Running' =
      report.update?.outcome ??
      (last && running && last.package_version_id === running.package_version_id && last.outcome !== 'Updated'
        ? 'Updated'
        : 'Running');
    const subject = offered ?? (outcome === 'Updated' ? running : undefined);
    if (subject && outcome !== 'Running') {
      const policy = await tx
        .selectFrom('agent_update_policy')
        .select('rollback_minutes')
        .where('tenant_id', '=', device.tenantId)
        .executeTakeFirst();
      const minutes = policy?.rollback_minutes ?? AGENT_UPDATE_LIMITS.defaultRollbackMinutes;
      const detail = report.update?.detail ?? null;
      await tx
        .insertInto('device_agent_update', {
          device_id: device.deviceId,
          tenant_id: device.tenantId,
          package_version_id: subject.package_version_id,
          from_version: outcome === 'Updating' ? report.agentVersion : null,
          outcome,
          detail,
          started: now,
          deadline: new Date(now.getTime() + minutes * 60_000 + SILENCE_GRACE_MS),
          modified: now,
        })
        .onConflict((conflict) =>
          conflict.column('device_id').doUpdateSet((eb) => ({
            package_version_id: eb.ref('excluded.package_version_id'),
            outcome: eb.ref('excluded.outcome'),
            detail: eb.ref('excluded.detail'),
            modified: eb.ref('excluded.modified'),
            // A new update starts its clock; an outcome of the same one keeps it.
            ...(outcome === 'Updating'
              ? {
                  from_version: eb.ref('excluded.from_version'),
                  started: eb.ref('excluded.started'),
                  deadline: eb.ref('excluded.deadline'),
                }
              : {}),
          })),
        )
        .execute();
      if (outcome === 'Updated') await markRollout(trx, device.tenantId, subject.package_version_id, now, null);
      if (outcome === 'RolledBack' || outcome === 'Refused')
        await markRollout(
          trx,
          device.tenantId,
          subject.package_version_id,
          now,
          `${outcome === 'RolledBack' ? 'A device went back from it' : 'A device refused it'} (device ${device.deviceId}): ${detail ?? 'no reason given'}`,
        );
      await recordAudit(trx, DEVICE_ACTOR(device.deviceId), {
        entityType: 'device',
        entityId: device.deviceId,
        tenantId: device.tenantId,
        action: 'agent update',
        changes: { outcome, version: subject.version, running: report.agentVersion, ...(detail ? { detail } : {}) },
      });
    }
    const packageId = running?.package_id ?? offered?.package_id;
    if (!packageId) return;
    await writers.recordInstallation(trx, device.scope, {
      device_id: device.deviceId,
      package_id: packageId,
      tenant_id: device.tenantId,
      package_version_id:
        outcome === 'Updating' ? (offered?.package_version_id ?? null) : (running?.package_version_id ?? null),
      installed_package_version_id: running?.package_version_id ?? null,
      install_status_id: INSTALL_STATUS_OF[outcome],
      status_detail: report.update?.detail ?? null,
      modified: now,
      modified_by: DEVICE_ACTOR(device.deviceId).userName,
    });
  });
}

/** Records that a version ran on a device of the tenant (the first time starts the second stage's clock), or halts its rollout there. */
async function markRollout(
  trx: Tx,
  tenantId: string,
  packageVersionId: string,
  now: Date,
  haltedReason: string | null,
): Promise<void> {
  await scoped(trx, ALL_TENANTS)
    .insertInto('agent_rollout', {
      tenant_id: tenantId,
      package_version_id: packageVersionId,
      first_updated: haltedReason === null ? now : null,
      halted: haltedReason === null ? null : now,
      halted_reason: haltedReason,
    })
    .onConflict((conflict) =>
      conflict.columns(['tenant_id', 'package_version_id']).doUpdateSet(
        haltedReason === null
          ? { first_updated: sql`coalesce(agent_rollout.first_updated, excluded.first_updated)` }
          : {
              halted: sql`coalesce(agent_rollout.halted, excluded.halted)`,
              halted_reason: sql`coalesce(agent_rollout.halted_reason, excluded.halted_reason)`,
            },
      ),
    )
    .execute();
}

/**
 * Updates whose agent has not reported within the rollback minutes (and a grace for its restart):
 * Silent, their installation Failed, and their version's rollout halted in the tenant. The agent
 * goes back on its own; the portal stops offering the version to others.
 */
export async function haltSilentUpdates(db: Db, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const everyone = scoped(trx, ALL_TENANTS);
    const silent = await everyone
      .updateTable('device_agent_update')
      .set({
        outcome: 'Silent',
        detail: 'The updated agent did not report within the rollback minutes.',
        modified: now,
      })
      .where('outcome', '=', 'Updating')
      .where('deadline', '<', now)
      .returning(['device_id', 'tenant_id', 'package_version_id', 'from_version'])
      .execute();
    const packages = new Map(
      silent.length === 0
        ? []
        : (
            await trx
              .selectFrom('package_version')
              .select(['package_version_id', 'package_id'])
              .where(
                'package_version_id',
                'in',
                silent.map((row) => row.package_version_id),
              )
              .execute()
          ).map((row) => [row.package_version_id, row.package_id]),
    );
    for (const row of silent) {
      await markRollout(
        trx,
        row.tenant_id,
        row.package_version_id,
        now,
        `A device did not report within the rollback minutes after updating (device ${row.device_id})`,
      );
      await fleetWriters().devices.reportInstallation(
        trx,
        ALL_TENANTS,
        { deviceId: row.device_id, packageId: packages.get(row.package_version_id) ?? '' },
        {
          install_status_id: INSTALL_STATUSES.Failed,
          status_detail: 'The updated agent did not report within the rollback minutes.',
          modified: now,
          modified_by: 'agent updates',
        },
      );
    }
    return silent.length;
  });
}

/** The sweep for silent updates, once a minute across all workers. */
export const agentUpdateSilenceTask = defineTask({
  name: 'agent.update-silence',
  payload: z.object({}),
  every: 60_000,
  perform: async (_payload, { db }) => {
    await haltSilentUpdates(db);
  },
});

/** GET /v1/agentUpdatePolicies/{tenantId}: the tenant's policy (the defaults until it saves one), its choices and its rollout. */
export async function findAgentUpdatePolicy(db: Db, user: Principal, tenantId: string): Promise<AgentUpdatePolicy> {
  const tenant = await scoped(db, user.tenantScope)
    .selectFrom('tenant')
    .select('tenant_id')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!tenant) throw new NotFoundError('The tenant');
  const [policy, versions] = await Promise.all([
    scoped(db, user.tenantScope)
      .selectFrom('agent_update_policy')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst(),
    agentVersions(db, user.tenantScope)
      .select(['v.package_version_id', 'v.version', 'v.package_version_status_id'])
      .orderBy('v.created', 'desc')
      .execute(),
  ]);
  const latest = versions.find((row) => row.package_version_status_id === 1);
  const chosen = policy?.version ? versions.find((row) => row.version === policy.version) : latest;
  let target: AgentUpdatePolicy['target'] = null;
  if (chosen) {
    const [counts, rollout] = await Promise.all([
      scoped(db, user.tenantScope)
        .selectFrom('device as d')
        .leftJoin('device_agent_update as u', (join) =>
          join.onRef('u.device_id', '=', 'd.device_id').on('u.package_version_id', '=', chosen.package_version_id),
        )
        .select((eb) => [
          eb.fn.countAll<string>().as('devices'),
          eb.fn.countAll<string>().filterWhere('d.agent_version', '=', chosen.version).as('running'),
          eb.fn.countAll<string>().filterWhere('u.outcome', '=', 'Updating').as('updating'),
          eb.fn.countAll<string>().filterWhere('u.outcome', 'in', ['RolledBack', 'Refused', 'Silent']).as('failed'),
        ])
        .where('d.tenant_id', '=', tenantId)
        .where('d.is_deleted', '=', false)
        .executeTakeFirstOrThrow(),
      scoped(db, user.tenantScope)
        .selectFrom('agent_rollout')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('package_version_id', '=', chosen.package_version_id)
        .executeTakeFirst(),
    ]);
    target = {
      packageVersionId: chosen.package_version_id,
      version: chosen.version,
      devices: Number(counts.devices),
      running: Number(counts.running),
      updating: Number(counts.updating),
      failed: Number(counts.failed),
      firstUpdated: rollout?.first_updated ?? null,
      halted: rollout?.halted ?? null,
      haltedReason: rollout?.halted_reason ?? null,
    };
  }
  return {
    tenantId,
    version: policy?.version ?? null,
    rolloutPercent: policy?.rollout_percent ?? AGENT_UPDATE_LIMITS.defaultRolloutPercent,
    rollbackMinutes: policy?.rollback_minutes ?? AGENT_UPDATE_LIMITS.defaultRollbackMinutes,
    versions: versions.map((row) => ({
      packageVersionId: row.package_version_id,
      version: row.version,
      statusId: row.package_version_status_id,
    })),
    target,
    modified: policy?.modified ?? null,
    modifiedBy: policy?.modified_by ?? null,
  };
}

/** PUT /v1/agentUpdatePolicies/{tenantId}: a pinned version must be one of the agent package's. */
export async function saveAgentUpdatePolicy(
  db: Db,
  user: Principal,
  tenantId: string,
  input: AgentUpdatePolicyInput,
): Promise<AgentUpdatePolicy> {
  await db.transaction().execute(async (trx) => {
    if (!(await scoped(trx, user.tenantScope).hasTenant(tenantId))) throw new NotFoundError('The tenant');
    if (input.version !== null) {
      const known = await agentVersions(trx, user.tenantScope)
        .select('v.package_version_id')
        .where('v.version', '=', input.version)
        .executeTakeFirst();
      if (!known)
        throw new BadRequestError(AGENT_UPDATE_MESSAGES.unknownVersion, {
          version: [AGENT_UPDATE_MESSAGES.unknownVersion],
        });
    }
    const tx = scoped(trx, user.tenantScope);
    const before = await tx
      .selectFrom('agent_update_policy')
      .select(['version', 'rollout_percent', 'rollback_minutes'])
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    const now = new Date();
    await tx
      .insertInto('agent_update_policy', {
        tenant_id: tenantId,
        version: input.version,
        rollout_percent: input.rolloutPercent,
        rollback_minutes: input.rollbackMinutes,
        modified: now,
        modified_by: user.userName,
      })
      .onConflict((conflict) =>
        conflict.column('tenant_id').doUpdateSet({
          version: input.version,
          rollout_percent: input.rolloutPercent,
          rollback_minutes: input.rollbackMinutes,
          modified: now,
          modified_by: user.userName,
        }),
      )
      .execute();
    await recordAudit(trx, user, {
      entityType: 'agentUpdatePolicy',
      entityId: tenantId,
      tenantId,
      action: before ? 'update' : 'create',
      changes: {
        version: { from: before?.version ?? null, to: input.version },
        rolloutPercent: { from: before?.rollout_percent ?? null, to: input.rolloutPercent },
        rollbackMinutes: { from: before?.rollback_minutes ?? null, to: input.rollbackMinutes },
      },
    });
  });
  return findAgentUpdatePolicy(db, user, tenantId);
}

/**
 * POST /v1/agentUpdatePolicies/{tenantId}/resume: the halted rollout of the tenant's version goes
 * on (a device's failure was its own, say a machine switched off mid-update); the devices that went
 * back from it are offered it again. A rollout that is not halted stays as it is.
 */
export async function resumeAgentRollout(db: Db, user: Principal, tenantId: string): Promise<AgentUpdatePolicy> {
  const current = await findAgentUpdatePolicy(db, user, tenantId);
  const target = current.target;
  // Resuming what runs changes nothing.
  if (!target?.halted) return current;
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    await tx
      .updateTable('agent_rollout')
      .set({ halted: null, halted_reason: null })
      .where('tenant_id', '=', tenantId)
      .where('package_version_id', '=', target.packageVersionId)
      .execute();
    await tx
      .deleteFrom('device_agent_update')
      .where('tenant_id', '=', tenantId)
      .where('package_version_id', '=', target.packageVersionId)
      .where('outcome', 'in', ['RolledBack', 'Refused', 'Silent'])
      .execute();
    await recordAudit(trx, user, {
      entityType: 'agentUpdatePolicy',
      entityId: tenantId,
      tenantId,
      action: 'resume',
      changes: { version: target.version, haltedReason: target.haltedReason },
    });
  });
  return findAgentUpdatePolicy(db, user, tenantId);
}
