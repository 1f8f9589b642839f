import { sql } from 'kysely';
import { HOME_TOP_RULES, type HomeCommunications, type HomeDevices, type HomeRuleMatches, type HomeWorkUnits } from '@cfs/contracts/home';
import { PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { FINISHED_STATES } from '@cfs/contracts/work-units';
import { CLOSED_COMMUNICATION_STATUSES } from '@cfs/contracts/communications';
import { canAccessTenant, type TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { deviceOnlineSql } from '../../db/device-presence.js';
import { scoped, tenantCondition } from '../../db/scoped.js';
import { NotFoundError } from '../../http/errors.js';

/**
 * The Home dashboard's figures (spec 000 §2 `/{tenantId}`), one statement per tile, each limited
 * to the one tenant the page shows. The caller's scope is narrowed to that tenant, never widened:
 * a tenant outside it answers 404 like any other row the caller cannot see.
 */
export function tenantOnly(scope: TenantScope, tenantId: string): TenantScope {
  if (!canAccessTenant(scope, tenantId)) throw new NotFoundError('The tenant');
  return { kind: 'some', tenantIds: [tenantId.toLowerCase()] };
}

const count = (value: string | number | bigint | null | undefined): number => Number(value ?? 0);

/**
 * Open work units by severity and state. Served by `work_unit_tenant_sort_idx` (tenant_id,
 * severity_id, …): one range of the tenant's rows, grouped in the index's severity order.
 */
export async function workUnitFigures(db: Db, scope: TenantScope): Promise<HomeWorkUnits> {
  const rows = await scoped(db, scope)
    .selectFrom('work_unit')
    .select(['severity_id', 'state_id', (eb) => eb.fn.countAll<string>().as('count')])
    .where('state_id', 'not in', [...FINISHED_STATES])
    .groupBy(['severity_id', 'state_id'])
    .orderBy('severity_id')
    .orderBy('state_id')
    .execute();
  const counts = rows.map((row) => ({ severityId: row.severity_id, stateId: row.state_id, count: count(row.count) }));
  return { open: counts.reduce((sum, row) => sum + row.count, 0), counts };
}

/**
 * SemVer precedence of two versions in SQL (spec 002 §3: versions are SemVer 2): the numeric
 * core compared as numbers, and at an equal core a pre-release comes before its release. Build
 * metadata is ignored, as SemVer says.
 */
const versionCore = (version: ReturnType<typeof sql.ref>) => sql`string_to_array(regexp_replace(${version}, '[-+].*$', ''), '.')::numeric[]`;
const isPreRelease = (version: ReturnType<typeof sql.ref>) => sql`(${version} ~ '^[^+]*-')`;

/**
 * The tenant's devices that are not deleted, online or offline by their heartbeat interval, and
 * those running an installed version below the package's Latest. One statement: the count reads
 * the tenant's devices from `device_tenant_name_idx` (partial, not deleted), and the out-of-date
 * test of each device reads its installations by the primary key (device_id, package_id) and the
 * Latest version by `package_version_status_idx` (package_id, status).
 */
export async function deviceFigures(db: Db, scope: TenantScope): Promise<HomeDevices> {
  const installed = sql.ref('iv.version');
  const latest = sql.ref('lv.version');
  const row = await scoped(db, scope)
    .selectFrom('device')
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      sql<string>`count(*) FILTER (WHERE ${deviceOnlineSql(sql.ref('device.last_contact'), sql.ref('device.heartbeat_interval'))})`.as('online'),
      sql<string>`count(*) FILTER (WHERE EXISTS (
        SELECT 1 FROM device_installation di
        JOIN package_version iv ON iv.package_version_id = di.installed_package_version_id
        JOIN package_version lv ON lv.package_id = di.package_id AND lv.package_version_status_id = ${PACKAGE_VERSION_STATUSES.Latest}
        WHERE di.device_id = device.device_id AND ${tenantCondition('device_installation', 'di', scope)}
          AND (${versionCore(installed)} < ${versionCore(latest)}
               OR (${versionCore(installed)} = ${versionCore(latest)} AND ${isPreRelease(installed)} AND NOT ${isPreRelease(latest)}))
      ))`.as('out_of_date'),
    ])
    .where('device.is_deleted', '=', false)
    .executeTakeFirstOrThrow();
  const total = count(row.total);
  const online = count(row.online);
  return { total, online, offline: total - online, outOfDate: count(row.out_of_date) };
}

/**
 * Active rule matches (spec 002 §4: active until their expires time) and the rules with the most.
 * One statement over the range `expires > now()` of `rule_match_tenant_idx` (tenant_id, expires
 * DESC); the total is summed over every rule before the top ones are cut.
 */
export async function ruleMatchFigures(db: Db, scope: TenantScope): Promise<HomeRuleMatches> {
  const rows = await scoped(db, scope)
    .selectFrom('rule_match')
    .innerJoin('rule', (join) => join.onRef('rule.rule_id', '=', 'rule_match.rule_id').on(tenantCondition('rule', 'rule', scope)))
    .select((eb) => [
      'rule.rule_id',
      'rule.name',
      eb.fn.countAll<string>().as('count'),
      sql<string>`sum(count(*)) OVER ()`.as('active'),
    ])
    .where('rule_match.expires', '>', sql<Date>`now()`)
    .groupBy(['rule.rule_id', 'rule.name'])
    .orderBy('count', 'desc')
    .orderBy('rule.name')
    .limit(HOME_TOP_RULES)
    .execute();
  return {
    active: count(rows[0]?.active),
    topRules: rows.map((row) => ({ ruleId: row.rule_id, name: row.name, count: count(row.count) })),
  };
}

/**
 * Open communications and the overdue ones among them: open with the next update past, as the
 * communications grid's `isOverdue` filter says (`work_unit_communication_tenant_created_idx`
 * gives the tenant's rows).
 */
export async function communicationFigures(db: Db, scope: TenantScope): Promise<HomeCommunications> {
  const row = await scoped(db, scope)
    .selectFrom('work_unit_communication')
    .select((eb) => [
      eb.fn.countAll<string>().as('open'),
      sql<string>`count(*) FILTER (WHERE next_update IS NOT NULL AND next_update < now())`.as('overdue'),
    ])
    .where('status', 'not in', [...CLOSED_COMMUNICATION_STATUSES])
    .executeTakeFirstOrThrow();
  return { open: count(row.open), overdue: count(row.overdue) };
}
