import { sql } from 'kysely';
import {
  HOME_TOP_RULES,
  type HomeCommunications,
  type HomeCompliance,
  type HomeDevices,
  type HomeRuleMatches,
  type HomeWorkUnits,
} from '@cfs/contracts/home';
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
 * The values as SQL literals, not parameters: a partial index's predicate (`state_id NOT IN (6, 7,
 * 8)`) is matched only by a query that states the same constants.
 */
const literals = (values: readonly (string | number)[]) => sql.join(values.map((value) => sql.lit(value)));

/**
 * Open work units by severity and state, read index-only from `work_unit_open_idx` (tenant_id,
 * severity_id, state_id, partial on the open states): the tenant's open work alone, whatever the
 * size of its history.
 */
export async function workUnitFigures(db: Db, scope: TenantScope): Promise<HomeWorkUnits> {
  const rows = await scoped(db, scope)
    .selectFrom('work_unit')
    .select(['severity_id', 'state_id', (eb) => eb.fn.countAll<string>().as('count')])
    .where(sql<boolean>`state_id NOT IN (${literals(FINISHED_STATES)})`)
    .groupBy(['severity_id', 'state_id'])
    .orderBy('severity_id')
    .orderBy('state_id')
    .execute();
  const counts = rows.map((row) => ({ severityId: row.severity_id, stateId: row.state_id, count: count(row.count) }));
  return { open: counts.reduce((sum, row) => sum + row.count, 0), counts };
}

/**
 * The tenant's devices that are not deleted, online or offline by their heartbeat interval, and
 * those out of date: with an Outdated package as the version report reads it (`device.outdated_packages`,
 * kept by the installations' trigger), so the tile and the report it links to count the same devices.
 * One statement over the tenant's devices (`device_tenant_name_idx`, partial on not deleted, or the
 * table for a tenant holding most devices).
 */
export async function deviceFigures(db: Db, scope: TenantScope): Promise<HomeDevices> {
  const row = await scoped(db, scope)
    .selectFrom('device')
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      sql<string>`count(*) FILTER (WHERE ${deviceOnlineSql(sql.ref('device.last_contact'), sql.ref('device.heartbeat_interval'))})`.as(
        'online',
      ),
      sql<string>`count(*) FILTER (WHERE device.outdated_packages > 0)`.as('out_of_date'),
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
    .innerJoin('rule', (join) =>
      join.onRef('rule.rule_id', '=', 'rule_match.rule_id').on(tenantCondition('rule', 'rule', scope)),
    )
    .select((eb) => [
      'rule.rule_id',
      'rule.name',
      eb.fn.countAll<string>().as('count'),
      sql<string>`sum(count(*)) OVER ()`.as('active'),
    ])
    .where('rule_match.expires', '>', sql<Date>`now()`)
    // A pending match has not opened: its conditions have not held for its rule's pending period.
    .where('rule_match.pending', '=', false)
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
 * communications grid's `isOverdue` filter says. Read index-only from
 * `work_unit_communication_open_idx` (tenant_id, next_update, partial on the open statuses).
 */
export async function communicationFigures(db: Db, scope: TenantScope): Promise<HomeCommunications> {
  const row = await scoped(db, scope)
    .selectFrom('work_unit_communication')
    .select((eb) => [
      eb.fn.countAll<string>().as('open'),
      sql<string>`count(*) FILTER (WHERE next_update IS NOT NULL AND next_update < now())`.as('overdue'),
    ])
    .where(sql<boolean>`status NOT IN (${literals(CLOSED_COMMUNICATION_STATUSES)})`)
    .executeTakeFirstOrThrow();
  return { open: count(row.open), overdue: count(row.overdue) };
}

/**
 * This week's compliance of each control set the tenant has (its own and the installation's):
 * controls with a status other than Notset, and NonCompliant ones, for the week starting
 * `weekStart`. The statuses of the week are read from `control_status_week_idx` (tenant_id,
 * check_date, control_id); the controls from their set's `control_set_order_idx`.
 */
export async function complianceFigures(db: Db, scope: TenantScope, weekStart: string): Promise<HomeCompliance> {
  const rows = await scoped(db, scope)
    .selectFrom('control_set')
    .innerJoin('control', 'control.control_set_id', 'control_set.control_set_id')
    .leftJoin('control_status', (join) =>
      join
        .onRef('control_status.control_id', '=', 'control.control_id')
        .on(sql<boolean>`control_status.check_date = ${weekStart}::date`)
        .on(tenantCondition('control_status', 'control_status', scope)),
    )
    .select((eb) => [
      'control_set.control_set_id',
      'control_set.name',
      eb.fn.count<string>('control.control_id').as('controls'),
      sql<string>`count(control_status.control_status_id) FILTER (WHERE control_status.status <> 'Notset')`.as('set'),
      sql<string>`count(control_status.control_status_id) FILTER (WHERE control_status.status = 'NonCompliant')`.as(
        'non_compliant',
      ),
    ])
    .groupBy(['control_set.control_set_id', 'control_set.name'])
    .orderBy('control_set.name')
    .execute();
  return {
    weekStart,
    controlSets: rows.map((row) => {
      const controls = count(row.controls);
      const set = count(row.set);
      // Spec 002 §9: percentages to two decimals.
      return {
        controlSetId: row.control_set_id,
        name: row.name,
        controls,
        set,
        percentSet: controls === 0 ? 0 : Math.round((set * 10_000) / controls) / 100,
        nonCompliant: count(row.non_compliant),
      };
    }),
  };
}
