import { sql } from 'kysely';
import { DEVICE_MESSAGES, NO_VERSION, type DeviceInstallation, type InstallationChoice } from '@cfs/contracts/devices';
import { AGENT_UPDATE_MESSAGES } from '@cfs/contracts/agent-updates';
import { FLEET_MESSAGES, INSTALL_STATUSES, OPERATING_SYSTEMS, PACKAGE_TYPES } from '@cfs/contracts/fleet';
import { recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import { BadRequestError } from '../../http/errors.js';
import { requireScriptsForPackages } from '../../auth/host-access.js';
import { lockDevice } from './commands.js';
import { findDevice } from './queries.js';

/**
 * The packages a device may install: its tenant's own and the installation's (tenantless) that
 * support its operating system; a device whose system is Unknown is offered all of them, and a
 * package that names no system runs on any. The shared agent package is not one of them.
 */
async function availablePackages<E extends Db | Tx>(
  db: ScopedDb<E>,
  device: { tenantId: string; operatingSystemId: number },
) {
  let query = db
    .selectFrom('package')
    .select(['package_id', 'name', 'description'])
    .where((eb) => eb.or([eb('tenant_id', 'is', null), eb('tenant_id', '=', device.tenantId)]))
    // The agent itself: its version is the tenant's agent updates' to choose (areas/agent/updates.ts).
    .where((eb) => eb.or([eb('tenant_id', 'is not', null), eb('package_type_id', '<>', PACKAGE_TYPES.AgentRunner)]));
  if (device.operatingSystemId !== OPERATING_SYSTEMS.Unknown) {
    query = query.where(
      sql<boolean>`(cardinality(operating_system_ids) = 0 OR ${device.operatingSystemId}::smallint = ANY(operating_system_ids))`,
    );
  }
  return query.orderBy('name').orderBy('package_id').execute();
}

/** GET v1/devices/GetPackageInstallsWithVersions(deviceId={id}). */
export async function findInstallations(db: Db, scope: TenantScope, deviceId: string): Promise<DeviceInstallation[]> {
  const device = await findDevice(db, scope, deviceId);
  const packages = await availablePackages(scoped(db, scope), device);
  if (packages.length === 0) return [];
  const ids = packages.map((row) => row.package_id);
  // Versions belong to their package, which the scoped read above has already allowed.
  const versions = await db
    .selectFrom('package_version')
    .select(['package_version_id', 'package_id', 'version', 'label', 'package_version_status_id'])
    .where('package_id', 'in', ids)
    .orderBy('created', 'desc')
    .execute();
  const installs = await scoped(db, scope)
    .selectFrom('device_installation')
    .selectAll()
    .where('device_id', '=', deviceId)
    .execute();
  const installOf = new Map(installs.map((row) => [row.package_id, row]));
  return packages.map((pkg) => {
    const install = installOf.get(pkg.package_id);
    return {
      installPackage: { packageId: pkg.package_id, name: pkg.name, description: pkg.description },
      packageName: pkg.name,
      installStatus: install?.install_status_id ?? INSTALL_STATUSES.AvailableForInstall,
      packageVersionId: install?.package_version_id ?? null,
      installedPackageVersionId: install?.installed_package_version_id ?? null,
      packageVersions: versions
        .filter((version) => version.package_id === pkg.package_id)
        .map((version) => ({
          packageVersionId: version.package_version_id,
          version: version.version,
          label: version.label,
          packageVersionStatusId: version.package_version_status_id,
        })),
    };
  });
}

const refused = (field: keyof InstallationChoice, text: string) =>
  new BadRequestError(FLEET_MESSAGES.saveInstallationsFailed, { [field]: [text] });

/**
 * POST v1/deviceInstallations/{deviceId}/packages: each choice names a version (Pending until the
 * agent reports) or none (the empty GUID: RemovalPending when something is installed, else the
 * row goes). Every choice is checked before anything is written.
 */
export async function saveInstallations(
  db: Db,
  user: Principal,
  deviceId: string,
  choices: readonly InstallationChoice[],
): Promise<DeviceInstallation[]> {
  if (choices.some((choice) => choice.deviceId !== deviceId))
    throw refused('deviceId', DEVICE_MESSAGES.packageNotAvailable);
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const device = await lockDevice(tx, deviceId);
    const available = new Set(
      (await availablePackages(tx, { tenantId: device.tenant_id, operatingSystemId: device.operating_system_id })).map(
        (row) => row.package_id,
      ),
    );
    const wanted = choices.filter((choice) => choice.packageVersionId !== NO_VERSION);
    const unavailable = choices.filter((choice) => !available.has(choice.packageId));
    if (unavailable.length > 0) {
      // The agent's own version is its tenant's agent updates' to choose, not a device's.
      const agentPackage = await tx
        .selectFrom('package')
        .select('package_id')
        .where(
          'package_id',
          'in',
          unavailable.map((choice) => choice.packageId),
        )
        .where('package_type_id', '=', PACKAGE_TYPES.AgentRunner)
        .where('tenant_id', 'is', null)
        .executeTakeFirst();
      throw refused(
        'packageId',
        agentPackage ? AGENT_UPDATE_MESSAGES.agentPackageChosenByPolicy : DEVICE_MESSAGES.packageNotAvailable,
      );
    }
    if (wanted.length > 0) {
      const versions = await trx
        .selectFrom('package_version')
        .select(['package_version_id', 'package_id'])
        .where(
          'package_version_id',
          'in',
          wanted.map((choice) => choice.packageVersionId),
        )
        // Held until the commit: a version being deleted meanwhile waits, then sees it is wanted.
        .forShare()
        .execute();
      const packageOf = new Map(versions.map((row) => [row.package_version_id, row.package_id]));
      for (const choice of wanted)
        if (packageOf.get(choice.packageVersionId) !== choice.packageId)
          throw refused('packageVersionId', DEVICE_MESSAGES.versionOfPackage);
    }
    const existing = new Map(
      (
        await tx.selectFrom('device_installation').selectAll().where('device_id', '=', deviceId).forUpdate().execute()
      ).map((row) => [row.package_id, row]),
    );
    // The installed version of a script package is the script its Script operations run: choosing
    // another one (or none) is choosing a script.
    const wantedVersion = (choice: InstallationChoice) =>
      choice.packageVersionId === NO_VERSION ? null : choice.packageVersionId;
    await requireScriptsForPackages(
      trx,
      user,
      choices
        .filter((choice) => (existing.get(choice.packageId)?.package_version_id ?? null) !== wantedVersion(choice))
        .map((choice) => choice.packageId),
    );
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const now = new Date();
    for (const choice of choices) {
      const row = existing.get(choice.packageId);
      if (choice.packageVersionId === NO_VERSION) {
        if (!row) continue;
        const installed =
          row.installed_package_version_id !== null || row.install_status_id === INSTALL_STATUSES.Installed;
        if (installed) {
          if (row.install_status_id === INSTALL_STATUSES.RemovalPending) continue;
          await tx
            .updateTable('device_installation')
            .set({
              install_status_id: INSTALL_STATUSES.RemovalPending,
              package_version_id: null,
              modified: now,
              modified_by: user.userName,
            })
            .where('device_id', '=', deviceId)
            .where('package_id', '=', choice.packageId)
            .execute();
        } else {
          await tx
            .deleteFrom('device_installation')
            .where('device_id', '=', deviceId)
            .where('package_id', '=', choice.packageId)
            .execute();
        }
        changes[choice.packageId] = { from: row.package_version_id, to: null };
        continue;
      }
      // The version already wanted or installed is left as it is: the agent's report stays.
      if (
        row?.package_version_id === choice.packageVersionId &&
        row.install_status_id !== INSTALL_STATUSES.RemovalPending
      )
        continue;
      const done =
        row?.installed_package_version_id === choice.packageVersionId &&
        row.install_status_id === INSTALL_STATUSES.Installed;
      const status = done ? INSTALL_STATUSES.Installed : INSTALL_STATUSES.Pending;
      await tx
        .insertInto('device_installation', {
          device_id: deviceId,
          package_id: choice.packageId,
          tenant_id: device.tenant_id,
          package_version_id: choice.packageVersionId,
          install_status_id: status,
          modified: now,
          modified_by: user.userName,
        })
        .onConflict((conflict) =>
          conflict.columns(['device_id', 'package_id']).doUpdateSet({
            package_version_id: choice.packageVersionId,
            install_status_id: status,
            status_detail: null,
            modified: now,
            modified_by: user.userName,
          }),
        )
        .execute();
      changes[choice.packageId] = { from: row?.package_version_id ?? null, to: choice.packageVersionId };
    }
    if (Object.keys(changes).length > 0) {
      await recordAudit(trx, user, {
        entityType: 'deviceInstallation',
        entityId: deviceId,
        tenantId: device.tenant_id,
        action: 'update',
        changes,
      });
    }
  });
  return findInstallations(db, user.tenantScope, deviceId);
}
