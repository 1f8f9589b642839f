import { sql, type RawBuilder } from 'kysely';
import {
  VERSION_REPORT_COUNT_GROUPS,
  VERSION_REPORT_COUNTED,
  VERSION_REPORT_GROUP_FIELDS,
  VERSION_REPORT_MESSAGES,
  type VersionReportGroup,
} from '@cfs/contracts/version-report';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import { scoped, tenantCondition } from '../../db/scoped.js';
import { BadRequestError } from '../../http/errors.js';
import { parseListQuery, type ListQueryInput } from '../../odata/list-query.js';
import { executeListStatement, filteredRowsSql } from '../../odata/list-query-sql.js';
import { versionReportBase, versionReportResource } from './resource.js';

/** The most groups one group-by answers: a filter's choices, not a report. */
const MAX_GROUPS = 1000;

type Apply =
  | { kind: 'values'; field: (typeof VERSION_REPORT_GROUP_FIELDS)[number] }
  | {
      kind: 'count';
      group: (typeof VERSION_REPORT_COUNT_GROUPS)[number];
      counted: (typeof VERSION_REPORT_COUNTED)[number];
      alias: string;
    };

const includes = <T extends string>(list: readonly T[], value: string | undefined): value is T =>
  value !== undefined && (list as readonly string[]).includes(value);

/**
 * The `$apply` forms the version report answers (spec 002 §7: "a group-by for dropdown options and
 * a distinct count of deviceId or package id by versionStatus or compliantDevice"):
 * `groupby((packageName))` and `groupby((versionStatus),aggregate(deviceId with countdistinct as count))`.
 * Our own small reading: the OData parser we use has no `$apply`, and these two forms are all the
 * report offers.
 */
export function parseApply(text: string): Apply {
  const compact = text.replace(/\s+/g, ' ').trim();
  const values = /^groupby\(\(\s*(\w+)\s*\)\)$/.exec(compact);
  if (values && includes(VERSION_REPORT_GROUP_FIELDS, values[1])) return { kind: 'values', field: values[1] };
  const count = /^groupby\(\(\s*(\w+)\s*\)\s*,\s*aggregate\(\s*(\w+) with countdistinct as (\w+)\s*\)\)$/.exec(compact);
  if (
    count &&
    includes(VERSION_REPORT_COUNT_GROUPS, count[1]) &&
    includes(VERSION_REPORT_COUNTED, count[2]) &&
    count[3]
  ) {
    return { kind: 'count', group: count[1], counted: count[2], alias: count[3] };
  }
  throw new BadRequestError(VERSION_REPORT_MESSAGES.applyInvalid, { $apply: [VERSION_REPORT_MESSAGES.applyInvalid] });
}

/**
 * Answers `$apply` over the caller's report rows that `$filter` keeps, as `{ value: [...] }`:
 * each value once (sorted), or each group with its distinct count. A compliant device runs the
 * Current version of every package it has: the devices are grouped first, then counted.
 */
export async function answerApply(
  db: Db,
  user: Principal,
  query: ListQueryInput,
  signal: AbortSignal,
): Promise<{ value: VersionReportGroup[] }> {
  const apply = parseApply(String(query.$apply));
  const tenant = tenantOnly(query.$filter);
  if (
    tenant !== undefined &&
    apply.kind === 'count' &&
    !(apply.group === 'compliantDevice' && apply.counted === 'packageId')
  ) {
    return { value: await summaryCounts(db, user.tenantScope, tenant, apply) };
  }
  if (tenant !== undefined && apply.kind === 'values' && apply.field === 'packageName')
    return { value: await installedPackageNames(db, user.tenantScope, tenant) };
  const parsed = parseListQuery(versionReportResource, { $filter: query.$filter });
  const base = versionReportBase(db, user.tenantScope);
  const rows = (fields: string[]) => filteredRowsSql(base, parsed, user.tenantScope, fields);
  let statement: RawBuilder<{ row: string }>;
  if (apply.kind === 'values') {
    const field = sql.id(apply.field);
    statement = sql`SELECT json_build_object(${sql.lit(apply.field)}, ${field})::text AS "row" FROM (SELECT DISTINCT ${field} FROM (${rows([apply.field])}) AS "f" WHERE ${field} IS NOT NULL ORDER BY ${field} LIMIT ${sql.lit(MAX_GROUPS)}) AS "g"`;
  } else if (apply.group === 'versionStatus') {
    const counted = sql.id(apply.counted);
    statement = sql`SELECT json_build_object('versionStatus', "versionStatus", ${sql.lit(apply.alias)}, count(DISTINCT ${counted}))::text AS "row" FROM (${rows(['versionStatus', apply.counted])}) AS "f" GROUP BY "versionStatus" ORDER BY "versionStatus"`;
  } else if (apply.counted === 'deviceId') {
    const devices = sql`SELECT "deviceId", bool_and("versionStatus" = 'Current') AS "compliantDevice" FROM (${rows(['deviceId', 'versionStatus'])}) AS "f" GROUP BY "deviceId"`;
    statement = sql`SELECT json_build_object('compliantDevice', "compliantDevice", ${sql.lit(apply.alias)}, count(*))::text AS "row" FROM (${devices}) AS "d" GROUP BY "compliantDevice" ORDER BY "compliantDevice" DESC`;
  } else {
    // Packages by the compliance of the devices they are on: a package on both kinds counts in both groups.
    const devices = sql`SELECT "deviceId" FROM (${rows(['deviceId', 'versionStatus'])}) AS "f" GROUP BY "deviceId" HAVING bool_and("versionStatus" = 'Current')`;
    const packages = sql`SELECT "packageId", "deviceId" IN (${devices}) AS "compliantDevice" FROM (${rows(['packageId', 'deviceId'])}) AS "p"`;
    statement = sql`SELECT json_build_object('compliantDevice', "compliantDevice", ${sql.lit(apply.alias)}, count(DISTINCT "packageId"))::text AS "row" FROM (${packages}) AS "c" GROUP BY "compliantDevice" ORDER BY "compliantDevice" DESC`;
  }
  const result = await executeListStatement(db, statement, signal);
  return { value: result.rows.map((row) => JSON.parse(row.row) as VersionReportGroup) };
}

/**
 * Whether a device of the scope (not deleted) has package `p` installed as `condition` says: each
 * condition names one version (or any), so this is a probe of `device_installation_report_idx`
 * that stops at its first row, never a walk past every device on another version.
 */
function installedAs(scope: TenantScope, tenantId: string | null, condition: RawBuilder<unknown>): RawBuilder<boolean> {
  const tenant = tenantId === null ? sql`` : sql` AND di.tenant_id = ${tenantId}::uuid`;
  return sql<boolean>`EXISTS (SELECT 1 FROM device_installation di JOIN device d ON d.device_id = di.device_id AND NOT d.is_deleted
    WHERE di.package_id = p.package_id AND ${condition} AND ${tenantCondition('device_installation', 'di', scope)}${tenant})`;
}

/** The packages installed on a device of the scope, by name: the Package filter's choices without reading every installation. */
async function installedPackageNames(
  db: Db,
  scope: TenantScope,
  tenantId: string | null,
): Promise<VersionReportGroup[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT DISTINCT p.name FROM package p WHERE ${installedAs(scope, tenantId, sql`di.installed_package_version_id IS NOT NULL`)}
    ORDER BY p.name LIMIT ${sql.lit(MAX_GROUPS)}`.execute(db);
  return rows.map((row) => ({ packageName: row.name }));
}

/** The tenant of a filter that names only the tenant (the screen's summary strip), null for no filter, undefined for any other. */
function tenantOnly(filter: unknown): string | null | undefined {
  if (filter === undefined || (typeof filter === 'string' && filter.trim() === '')) return null;
  const match =
    typeof filter === 'string' ? /^\s*\(?\s*tenantId eq '?([0-9a-fA-F-]{36})'?\s*\)?\s*$/.exec(filter) : null;
  return match?.[1]?.toLowerCase();
}

/**
 * The summary strip's counts for a whole tenant (or every tenant of the caller), read from the
 * devices' package counts (`installed_packages`, `outdated_packages`, kept by triggers): one row
 * per device instead of one per installation. Packages are counted by an index probe each for a
 * installation on the Latest and for one on each other version. Answers what the general path would.
 */
async function summaryCounts(
  db: Db,
  scope: TenantScope,
  tenantId: string | null,
  apply: Extract<Apply, { kind: 'count' }>,
): Promise<VersionReportGroup[]> {
  if (apply.counted === 'deviceId') {
    let devices = scoped(db, scope)
      .selectFrom('device')
      .select([
        sql<number>`count(*) FILTER (WHERE installed_packages > outdated_packages)::integer`.as('current'),
        sql<number>`count(*) FILTER (WHERE outdated_packages > 0)::integer`.as('outdated'),
        sql<number>`count(*) FILTER (WHERE outdated_packages = 0)::integer`.as('compliant'),
      ])
      .where('is_deleted', '=', false)
      .where('installed_packages', '>', 0);
    if (tenantId !== null) devices = devices.where('tenant_id', '=', tenantId);
    const row = await devices.executeTakeFirstOrThrow();
    const groups =
      apply.group === 'versionStatus'
        ? [
            { versionStatus: 'Current' as const, [apply.alias]: row.current },
            { versionStatus: 'Outdated' as const, [apply.alias]: row.outdated },
          ]
        : [
            { compliantDevice: true, [apply.alias]: row.compliant },
            { compliantDevice: false, [apply.alias]: row.outdated },
          ];
    // As a GROUP BY answers: no group without rows.
    return groups.filter((group) => Number(group[apply.alias]) > 0);
  }
  const { rows } = await sql<{ current: number; outdated: number }>`
    SELECT count(*) FILTER (WHERE c)::integer AS "current", count(*) FILTER (WHERE o)::integer AS "outdated" FROM (
      SELECT CASE WHEN lv.package_version_id IS NULL THEN ${installedAs(scope, tenantId, sql`di.installed_package_version_id IS NOT NULL`)}
                  ELSE ${installedAs(scope, tenantId, sql`di.installed_package_version_id = lv.package_version_id`)} END AS c,
             lv.package_version_id IS NOT NULL AND EXISTS (
               SELECT 1 FROM package_version v WHERE v.package_id = p.package_id AND v.package_version_id <> lv.package_version_id
                 AND ${installedAs(scope, tenantId, sql`di.installed_package_version_id = v.package_version_id`)}) AS o
      FROM package p LEFT JOIN package_latest_version lv ON lv.package_id = p.package_id) AS "x"`.execute(db);
  const row = rows[0] ?? { current: 0, outdated: 0 };
  return [
    { versionStatus: 'Current' as const, [apply.alias]: row.current },
    { versionStatus: 'Outdated' as const, [apply.alias]: row.outdated },
  ].filter((group) => Number(group[apply.alias]) > 0);
}
