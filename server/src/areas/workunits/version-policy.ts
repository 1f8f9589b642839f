import { sql } from 'kysely';
import { z } from 'zod';
import { SEVERITIES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { defineTask } from '../../engines/jobs/task.js';
import { systemWorkUnitWriter } from './system-writer.js';

/** How often the version policy is checked: a day's policy is met or broken within this. */
export const VERSION_POLICY_EVERY_MS = 15 * 60_000;
/** Work units opened (or closed) by one sweep at most; the next sweep goes on. */
const SWEEP_LIMIT = 500;
export const VERSION_POLICY_SOURCE = 'Version policy';
/** The policy's id where a user's would stand in the audit trail (it names no user). */
const VERSION_POLICY_ACTOR = { id: 'b7c1e4a0-5f3d-4c8e-9a26-0d4f1e7b3c59', name: VERSION_POLICY_SOURCE };

const day = (date: Date) => date.toISOString().slice(0, 10);

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/**
 * The tenant's version policy ("devices must run the Latest version within N days of its
 * release", `tenant.version_policy_days`): one work unit per device and package that still runs
 * another version N days after the Latest was released, related to the device; resolved with a
 * note once the device runs the Latest (or no longer has the package, or is deleted).
 *
 * Safe to run on several workers at once and again after a crash: a unit is opened in the same
 * transaction as its row in `version_policy_work_unit`, whose unique index allows one open row per
 * device and package, so a second sweep's unit is rolled back with its row; closing checks the
 * unit's state and its note before writing either.
 */
export async function sweepVersionPolicy(db: Db, now = new Date()): Promise<{ opened: number[]; closed: number[] }> {
  const all = scoped(db, ALL_TENANTS);
  const due = await all
    .selectFrom('device_installation')
    .innerJoin('tenant', 'tenant.tenant_id', 'device_installation.tenant_id')
    .innerJoin('device', 'device.device_id', 'device_installation.device_id')
    .innerJoin('package', 'package.package_id', 'device_installation.package_id')
    .innerJoin(
      'package_version',
      'package_version.package_version_id',
      'device_installation.installed_package_version_id',
    )
    .innerJoin('package_latest_version', 'package_latest_version.package_id', 'device_installation.package_id')
    .leftJoin('version_policy_work_unit', (join) =>
      join
        .onRef('version_policy_work_unit.device_id', '=', 'device_installation.device_id')
        .onRef('version_policy_work_unit.package_id', '=', 'device_installation.package_id')
        .on('version_policy_work_unit.closed', 'is', null),
    )
    .select([
      'device_installation.tenant_id',
      'device_installation.device_id',
      'device_installation.package_id',
      'device.name as device_name',
      'package.name as package_name',
      'package_version.version as installed_version',
      'package_latest_version.version as latest_version',
      'package_latest_version.package_version_id as latest_id',
      'package_latest_version.created as latest_released',
      'tenant.version_policy_days',
    ])
    .where('tenant.version_policy_days', 'is not', null)
    .where('tenant.enabled', '=', true)
    .where('device.is_deleted', '=', false)
    .whereRef('package_latest_version.package_version_id', '<>', 'device_installation.installed_package_version_id')
    .where(sql<boolean>`package_latest_version.created + tenant.version_policy_days * interval '1 day' <= ${now}`)
    // No unit of this device and package open yet.
    .where('version_policy_work_unit.work_unit_id', 'is', null)
    .orderBy('package_latest_version.created')
    .limit(SWEEP_LIMIT)
    .execute();

  const opened: number[] = [];
  for (const row of due) {
    if (!row.latest_id || !row.latest_released || !row.latest_version) continue;
    const latestId = row.latest_id;
    try {
      const workUnitId = await systemWorkUnitWriter.open(
        db,
        {
          tenantId: row.tenant_id,
          title: `${row.device_name}: ${row.package_name} ${row.installed_version} is not the Latest ${row.latest_version}`,
          description: `The tenant's version policy: devices run the Latest version within ${row.version_policy_days ?? 0} days of its release. ${row.package_name} ${row.latest_version} was released on ${day(row.latest_released)}; ${row.device_name} still runs ${row.installed_version}.`,
          severityId: SEVERITIES.Sev3,
          workUnitTypeId: WORK_UNIT_TYPES.Incident,
          source: VERSION_POLICY_SOURCE,
          referenceId: `${row.device_id}:${row.package_id}`,
          relation: { referenceType: 'Device', referenceId: row.device_id },
          actor: VERSION_POLICY_ACTOR,
        },
        async (trx, created) => {
          await scoped(trx, ALL_TENANTS)
            .insertInto('version_policy_work_unit', {
              work_unit_id: created,
              tenant_id: row.tenant_id,
              device_id: row.device_id,
              package_id: row.package_id,
              latest_package_version_id: latestId,
            })
            .execute();
        },
      );
      opened.push(workUnitId);
    } catch (error) {
      // Another worker opened this device and package's unit first: its unit stands, ours was rolled back.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  const settled = await all
    .selectFrom('version_policy_work_unit')
    .innerJoin('device', 'device.device_id', 'version_policy_work_unit.device_id')
    .innerJoin('package', 'package.package_id', 'version_policy_work_unit.package_id')
    .leftJoin('device_installation', (join) =>
      join
        .onRef('device_installation.device_id', '=', 'version_policy_work_unit.device_id')
        .onRef('device_installation.package_id', '=', 'version_policy_work_unit.package_id'),
    )
    .leftJoin(
      'package_version',
      'package_version.package_version_id',
      'device_installation.installed_package_version_id',
    )
    .leftJoin('package_latest_version', 'package_latest_version.package_id', 'version_policy_work_unit.package_id')
    .select([
      'version_policy_work_unit.work_unit_id',
      'version_policy_work_unit.tenant_id',
      'device.name as device_name',
      'device.is_deleted',
      'package.name as package_name',
      'package_version.version as installed_version',
      'package_latest_version.package_version_id as latest_id',
      'device_installation.installed_package_version_id',
    ])
    .where('version_policy_work_unit.closed', 'is', null)
    .where((eb) =>
      eb.or([
        eb('device.is_deleted', '=', true),
        eb('device_installation.installed_package_version_id', 'is', null),
        eb('package_latest_version.package_version_id', 'is', null),
        eb(
          eb.ref('device_installation.installed_package_version_id'),
          '=',
          eb.ref('package_latest_version.package_version_id'),
        ),
      ]),
    )
    .limit(SWEEP_LIMIT)
    .execute();

  const closed: number[] = [];
  for (const row of settled) {
    const note = row.is_deleted
      ? `${row.device_name} was deleted: the version policy no longer applies to it.`
      : row.installed_package_version_id === null
        ? `${row.device_name} no longer has ${row.package_name} installed.`
        : `${row.device_name} now runs ${row.package_name} ${row.installed_version ?? ''}, the Latest version.`;
    await systemWorkUnitWriter.resolve(db, {
      tenantId: row.tenant_id,
      workUnitId: Number(row.work_unit_id),
      note,
      actor: VERSION_POLICY_ACTOR,
    });
    await all
      .updateTable('version_policy_work_unit')
      .set({ closed: new Date() })
      .where('work_unit_id', '=', row.work_unit_id)
      .where('closed', 'is', null)
      .execute();
    closed.push(Number(row.work_unit_id));
  }
  return { opened, closed };
}

/** The recurring sweep of every tenant's version policy, once per period across all workers. */
export const versionPolicyTask = defineTask({
  name: 'workunits.version-policy',
  payload: z.object({}),
  every: VERSION_POLICY_EVERY_MS,
  perform: async (_payload, { db }) => {
    await sweepVersionPolicy(db);
  },
});
