import { sql } from 'kysely';
import { VERSION_REPORT_PAGE_SIZE } from '@cfs/contracts/constants';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { defineResource } from '../../odata/resource.js';

/**
 * The report's rows (spec 002 §3 ComplianceReport row): each device that is not deleted × each
 * package installed on it (an installed version reported by its agent), with the package's Latest
 * (the view `package_latest_version`, read through `package_version_latest_idx`). Read as a subquery by the list layer, which
 * PostgreSQL flattens into one join: the default order (device name, then the row's key) walks
 * `device_tenant_name_idx` and each device's installations by primary key, so a page costs its rows.
 */
export function versionReportBase(db: Db, scope: TenantScope) {
  return scoped(db, scope)
    .selectFrom('device')
    .innerJoin('device_installation', (join) =>
      join
        .onRef('device_installation.device_id', '=', 'device.device_id')
        .onRef('device_installation.tenant_id', '=', 'device.tenant_id'),
    )
    .innerJoin('tenant', 'tenant.tenant_id', 'device.tenant_id')
    .innerJoin('subscription', 'subscription.subscription_id', 'device.subscription_id')
    .innerJoin('package', 'package.package_id', 'device_installation.package_id')
    .innerJoin(
      'package_version',
      'package_version.package_version_id',
      'device_installation.installed_package_version_id',
    )
    .leftJoin('package_latest_version', 'package_latest_version.package_id', 'device_installation.package_id')
    .select([
      'device_installation.installation_id',
      'device.device_id',
      'device.name as device_name',
      'device.tenant_id',
      'tenant.name as tenant_name',
      'device.subscription_id',
      'subscription.name as subscription_name',
      'device_installation.package_id',
      'package.name as package_name',
      // Current: the device runs the Latest, or the package has none yet (only pre-releases).
      sql<string>`CASE WHEN package_latest_version.package_version_id IS NULL OR package_latest_version.package_version_id = device_installation.installed_package_version_id THEN 'Current' ELSE 'Outdated' END`.as(
        'version_status',
      ),
      'package_version.version as installed_version',
      'package_version.created as installed_version_released',
      'package_latest_version.version as latest_version',
      'package_latest_version.created as latest_version_released',
    ])
    .where('device.is_deleted', '=', false);
}

/** GET /v1/compliancereport (spec 002 §7 Version report): paged 25 by default (§9), up to 1000 for Export All. */
export const versionReportResource = defineResource({
  table: 'device_installation',
  key: 'installationId',
  fields: {
    installationId: { type: 'integer' },
    deviceId: { type: 'guid' },
    deviceName: { type: 'string' },
    tenantId: { type: 'guid' },
    tenantName: { type: 'string' },
    subscriptionId: { type: 'guid' },
    subscriptionName: { type: 'string' },
    packageId: { type: 'guid' },
    packageName: { type: 'string' },
    versionStatus: { type: 'string' },
    installedVersion: { type: 'string' },
    installedVersionReleased: { type: 'datetime' },
    latestVersion: { type: 'string' },
    latestVersionReleased: { type: 'datetime' },
  },
  defaultOrderBy: 'deviceName asc',
  defaultTop: VERSION_REPORT_PAGE_SIZE,
});
