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
import { tenantCondition } from '../../db/scoped.js';
import { BadRequestError } from '../../http/errors.js';
import { parseListQuery, type ListQueryInput, type Predicate } from '../../odata/list-query.js';
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
 * Current version of every package it has. A filter on the tenant, subscription and package alone
 * (the summary strip's, the filters' choices) is answered from the counts the triggers keep; any
 * other from the rows, the devices grouped first and then counted.
 */
export async function answerApply(
  db: Db,
  user: Principal,
  query: ListQueryInput,
  signal: AbortSignal,
): Promise<{ value: VersionReportGroup[] }> {
  const apply = parseApply(String(query.$apply));
  const parsed = parseListQuery(versionReportResource, { $filter: query.$filter });
  const filter = countsFilter(parsed.filter);
  if (filter) {
    const counted = await fromCounts(db, user.tenantScope, filter, apply);
    if (counted) return { value: counted };
  }
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

/** The fields a filter may name, each once and with `eq`, for the answer to be read from the counts. */
const COUNTS_FIELDS = ['tenantId', 'subscriptionId', 'subscriptionName', 'packageId', 'packageName'] as const;
type CountsFilter = Partial<Record<(typeof COUNTS_FIELDS)[number], string>>;

/**
 * The filter as equalities on the tenant, the subscription and the package (by id or by name),
 * and-ed: the screen's tenant and the grid's Subscription and Package choices. Undefined for any
 * other filter, which the report's rows answer.
 */
export function countsFilter(predicate: Predicate | undefined): CountsFilter | undefined {
  const filter: CountsFilter = {};
  const clauses = (item: Predicate): Predicate[] => (item.kind === 'and' ? item.operands.flatMap(clauses) : [item]);
  for (const clause of predicate === undefined ? [] : clauses(predicate)) {
    if (clause.kind !== 'compare' || clause.op !== 'eq' || clause.left.kind !== 'field') return undefined;
    if (clause.left.ref.relations.length > 0 || clause.right.kind !== 'value') return undefined;
    const name = clause.left.ref.name;
    if (!includes(COUNTS_FIELDS, name) || filter[name] !== undefined) return undefined;
    filter[name] = String(clause.right.value);
  }
  return filter;
}

/**
 * The rows of a counts table (alias "c") that the scope and the filter keep, with the subscription,
 * package and tenant joined by the names the filter or the answer use.
 */
function countsFrom(
  table: 'version_report_device_count' | 'version_report_package_count',
  scope: TenantScope,
  filter: CountsFilter,
  join: { subscription?: boolean; package?: boolean; tenant?: boolean } = {},
): RawBuilder<unknown> {
  const conditions = [tenantCondition(table, 'c', scope)];
  if (filter.tenantId !== undefined) conditions.push(sql`c.tenant_id = ${filter.tenantId}::uuid`);
  if (filter.subscriptionId !== undefined) conditions.push(sql`c.subscription_id = ${filter.subscriptionId}::uuid`);
  if (filter.packageId !== undefined) conditions.push(sql`c.package_id = ${filter.packageId}::uuid`);
  if (filter.subscriptionName !== undefined) conditions.push(sql`s.name = ${filter.subscriptionName}`);
  if (filter.packageName !== undefined) conditions.push(sql`p.name = ${filter.packageName}`);
  const joins = [
    (join.subscription || filter.subscriptionName !== undefined) &&
      sql`JOIN subscription s ON s.subscription_id = c.subscription_id`,
    (join.package || filter.packageName !== undefined) && sql`JOIN package p ON p.package_id = c.package_id`,
    join.tenant && sql`JOIN tenant t ON t.tenant_id = c.tenant_id`,
  ].filter((part): part is RawBuilder<unknown> => part !== false && part !== undefined);
  return sql`FROM ${sql.table(table)} c ${sql.join(joins, sql` `)} WHERE ${sql.join(conditions, sql` AND `)}`;
}

/** A value group's name column in the counts' joins. */
const VALUE_COLUMNS = {
  tenantName: { column: sql.ref('t.name'), join: { tenant: true } },
  subscriptionName: { column: sql.ref('s.name'), join: { subscription: true } },
  packageName: { column: sql.ref('p.name'), join: { package: true } },
} as const;

/** What the counts hold for a filter: Current, Outdated and compliant (devices or installations), and how many packages. */
interface Counted {
  current: number;
  outdated: number;
  compliant: number;
  packages: number;
}

/**
 * The statement that reads `apply`'s figures from the counts the triggers keep (migration 0039):
 * a few rows per tenant, subscription and package, never the installations or the devices.
 * Names (a filter's choices) as rows of `name`; counts as one row of `Counted`. Undefined for the
 * one form the counts cannot answer: packages by compliant device.
 */
export function countsStatement(
  scope: TenantScope,
  filter: CountsFilter,
  apply: Apply,
): RawBuilder<{ name: string }> | RawBuilder<Counted> | undefined {
  const installs = (join = {}) => countsFrom('version_report_package_count', scope, filter, join);
  if (apply.kind === 'values' && apply.field !== 'versionStatus') {
    const { column, join } = VALUE_COLUMNS[apply.field];
    return sql<{
      name: string;
    }>`SELECT DISTINCT ${column} AS "name" ${installs(join)} ORDER BY 1 LIMIT ${sql.lit(MAX_GROUPS)}`;
  }
  if (apply.kind === 'count' && apply.counted === 'packageId') {
    if (apply.group === 'compliantDevice') return undefined;
    return sql<Counted>`SELECT count(*) FILTER (WHERE "current" > 0)::integer AS "current",
      count(*) FILTER (WHERE "outdated" > 0)::integer AS "outdated", 0 AS "compliant", count(*)::integer AS "packages"
      FROM (SELECT c.package_id, sum(c.current_installs) AS "current", sum(c.outdated_installs) AS "outdated"
            ${installs()} GROUP BY c.package_id) AS "g"`;
  }
  // Filtered to a package (or Version Status choices), a device has one installation of it: Current
  // (and so compliant for the rows kept) or Outdated.
  if (apply.kind === 'values' || filter.packageId !== undefined || filter.packageName !== undefined) {
    return sql<Counted>`SELECT coalesce(sum(c.current_installs), 0)::integer AS "current",
      coalesce(sum(c.outdated_installs), 0)::integer AS "outdated", coalesce(sum(c.current_installs), 0)::integer AS "compliant",
      count(DISTINCT c.package_id)::integer AS "packages" ${installs()}`;
  }
  return sql<Counted>`SELECT coalesce(sum(c.current_devices), 0)::integer AS "current",
    coalesce(sum(c.outdated_devices), 0)::integer AS "outdated", coalesce(sum(c.compliant_devices), 0)::integer AS "compliant",
    0 AS "packages" ${countsFrom('version_report_device_count', scope, filter)}`;
}

/**
 * `apply` answered from the counts, as the report's rows would answer it (no group without rows);
 * undefined where the counts cannot say: packages by compliant device, and devices of a package
 * name that names more than one package (a device may have both).
 */
async function fromCounts(
  db: Db,
  scope: TenantScope,
  filter: CountsFilter,
  apply: Apply,
): Promise<VersionReportGroup[] | undefined> {
  const statement = countsStatement(scope, filter, apply);
  if (statement === undefined) return undefined;
  if (apply.kind === 'values' && apply.field !== 'versionStatus') {
    const { rows } = await (statement as RawBuilder<{ name: string }>).execute(db);
    return rows.map((row) => ({ [apply.field]: row.name }));
  }
  const { rows } = await (statement as RawBuilder<Counted>).execute(db);
  const counted = rows[0] ?? { current: 0, outdated: 0, compliant: 0, packages: 0 };
  if (apply.kind === 'values')
    return [
      ...(counted.current > 0 ? [{ versionStatus: 'Current' as const }] : []),
      ...(counted.outdated > 0 ? [{ versionStatus: 'Outdated' as const }] : []),
    ];
  if (apply.counted === 'deviceId' && filter.packageName !== undefined && counted.packages > 1) return undefined;
  const groups =
    apply.group === 'versionStatus'
      ? [
          { versionStatus: 'Current' as const, [apply.alias]: counted.current },
          { versionStatus: 'Outdated' as const, [apply.alias]: counted.outdated },
        ]
      : [
          { compliantDevice: true, [apply.alias]: counted.compliant },
          { compliantDevice: false, [apply.alias]: counted.outdated },
        ];
  return groups.filter((group) => Number(group[apply.alias]) > 0);
}
