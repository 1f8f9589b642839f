import { sql } from 'kysely';
import { PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import type { Db } from '../../server/src/db/database.js';
import { DEMO } from '../../server/src/db/demo-ids.js';
import type { BenchPortal } from './bench-portal.js';
import { devicesPageMeasure, type RecordFigure } from './fleet.js';

/**
 * The version report's fleet: `packages` packages of Contoso, each with an Archived 1.0.0, the
 * Latest 1.1.0 and a 1.2.0-beta.1 pre-release, installed on every one of Contoso's devices
 * (loadDevices): 70 % run the Latest, 20 % the older release, 10 % the pre-release, by a seeded random.
 */
export async function loadInstallations(db: Db, packages: number): Promise<void> {
  const { Latest, Archived, PreRelease } = PACKAGE_VERSION_STATUSES;
  await sql`
    INSERT INTO package (tenant_id, name, package_type_id, operating_system_ids)
    SELECT ${DEMO.contoso}::uuid, 'Bench package ' || lpad(g::text, 2, '0'), 1, '{1}' FROM generate_series(1, ${packages}) AS g`.execute(
    db,
  );
  await sql`
    INSERT INTO package_version (package_id, version, label, package_version_status_id, file_sha256, file_name, file_size, created)
    SELECT p.package_id, v.version, v.version, v.status, repeat('0', 64), 'bench.zip', 1, now() - v.age * interval '1 day'
    FROM package p,
         (VALUES ('1.0.0', ${Archived}::smallint, 90), ('1.1.0', ${Latest}::smallint, 30), ('1.2.0-beta.1', ${PreRelease}::smallint, 5)) AS v(version, status, age)
    WHERE p.name LIKE 'Bench package %'`.execute(db);
  await sql`SELECT setseed(0.17)`.execute(db);
  // A bulk load counts each device's packages and the report's figures once afterwards, as the
  // migrations do for the rows they find.
  await sql`ALTER TABLE device_installation DISABLE TRIGGER device_installation_counts, DISABLE TRIGGER installation_version_report_counts, DISABLE TRIGGER installation_package_share`.execute(
    db,
  );
  await sql`ALTER TABLE device DISABLE TRIGGER device_version_report_counts_update`.execute(db);
  await sql`
    INSERT INTO device_installation (device_id, package_id, tenant_id, package_version_id, installed_package_version_id, install_status_id)
    SELECT d.device_id, v.package_id, d.tenant_id, v.chosen, v.chosen, 2
    FROM device d
    CROSS JOIN LATERAL (
      SELECT p.package_id,
             (SELECT package_version_id FROM package_version pv WHERE pv.package_id = p.package_id
               AND pv.version = CASE WHEN r < 0.7 THEN '1.1.0' WHEN r < 0.9 THEN '1.0.0' ELSE '1.2.0-beta.1' END) AS chosen
      FROM (SELECT package_id, random() AS r FROM package WHERE name LIKE 'Bench package %' AND d.device_id IS NOT NULL) AS p
    ) AS v
    WHERE d.tenant_id = ${DEMO.contoso}::uuid AND d.name LIKE 'host-%'`.execute(db);
  await sql`SELECT recount_device_packages()`.execute(db);
  await sql`SELECT recount_version_report()`.execute(db);
  await sql`ALTER TABLE device_installation ENABLE TRIGGER device_installation_counts, ENABLE TRIGGER installation_version_report_counts, ENABLE TRIGGER installation_package_share`.execute(
    db,
  );
  await sql`ALTER TABLE device ENABLE TRIGGER device_version_report_counts_update`.execute(db);
}

/**
 * The version report at scale, as the operator's screen asks it (one tenant, /{tenantId}/versionreport):
 * the first page (25 by device name, with the count) and each query of the summary strip, over
 * HTTP, against a plain indexed page of the devices list (25 by name, with the count) in turns.
 */
export async function versionReport(
  portal: BenchPortal,
  record: RecordFigure,
  options: { runs: number; devices: number; packages: number },
): Promise<void> {
  const tenant = `tenantId eq ${DEMO.contoso}`;
  const path = (query: Record<string, string>) => `/v1/compliancereport?${new URLSearchParams(query).toString()}`;
  const scale = `${options.devices.toLocaleString('en-US')} devices × ${options.packages} packages`;
  const measure = await devicesPageMeasure(portal, record, `version report at ${scale}`);
  await measure(
    'first page ($top=25, $count, by device name)',
    path({ $top: '25', $count: 'true', $filter: tenant, $orderby: 'deviceName asc' }),
    options.runs,
  );
  await measure(
    "page of Outdated rows ($filter versionStatus eq 'Outdated')",
    path({ $top: '25', $count: 'true', $filter: `${tenant} and versionStatus eq 'Outdated'` }),
    options.runs,
  );
  const summaryRuns = Math.max(10, Math.floor(options.runs / 5));
  await measure(
    'summary: devices by versionStatus',
    path({ $apply: 'groupby((versionStatus),aggregate(deviceId with countdistinct as count))', $filter: tenant }),
    summaryRuns,
  );
  await measure(
    'summary: packages by versionStatus',
    path({ $apply: 'groupby((versionStatus),aggregate(packageId with countdistinct as count))', $filter: tenant }),
    summaryRuns,
  );
  await measure(
    'summary: devices by compliantDevice',
    path({ $apply: 'groupby((compliantDevice),aggregate(deviceId with countdistinct as count))', $filter: tenant }),
    summaryRuns,
  );
  await measure(
    'filter choices: packageName group-by',
    path({ $apply: 'groupby((packageName))', $filter: tenant }),
    summaryRuns,
  );
}
