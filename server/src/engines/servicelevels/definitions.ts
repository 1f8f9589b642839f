import { secondOfDay } from '@cfs/contracts/service-levels';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import type { BusinessCalendar } from './calendar.js';

/** A calendar row as stored (areas/servicelevels writes it). */
export interface CalendarRow {
  tenant_id: string | null;
  time_zone: string;
  business_hours: unknown;
  holidays: string[];
  pause_state_ids: number[];
  modified: Date;
  modified_by: string | null;
}

/** The service levels in force for a tenant: its own, or the installation's. */
export interface LevelsInForce {
  /** Whose they are: the tenant's, or null for the installation's. */
  owner: string | null;
  row: CalendarRow;
  calendar: BusinessCalendar;
  pauseStates: ReadonlySet<number>;
  targets: readonly {
    workUnitTypeId: number;
    severityId: number;
    responseSeconds: number | null;
    resolutionSeconds: number | null;
  }[];
}

/** The stored business hours as the calendar counts them (null: around the clock). */
export function hoursOf(stored: unknown): BusinessCalendar['hours'] {
  if (!Array.isArray(stored)) return null;
  return stored.map((entry: { weekday: number; start: string; end: string }) => ({
    weekday: entry.weekday,
    start: secondOfDay(entry.start),
    end: secondOfDay(entry.end),
  }));
}

/**
 * The service levels in force for `tenantId`: the tenant's calendar and targets when it has a
 * calendar of its own, else the installation's (the row without a tenant). Read for any tenant by
 * the engine (unscoped by design); the area's routes check the caller's tenants first.
 */
export async function levelsFor(executor: Db | Tx, tenantId: string | null): Promise<LevelsInForce> {
  const all = scoped(executor, ALL_TENANTS);
  const rows = await all
    .selectFrom('service_level_calendar')
    .select(['tenant_id', 'time_zone', 'business_hours', 'holidays', 'pause_state_ids', 'modified', 'modified_by'])
    .where((eb) =>
      tenantId === null
        ? eb('tenant_id', 'is', null)
        : eb.or([eb('tenant_id', '=', tenantId), eb('tenant_id', 'is', null)]),
    )
    .execute();
  const row = rows.find((each) => each.tenant_id !== null) ?? rows.find((each) => each.tenant_id === null);
  if (!row) throw new Error('The installation has no service level calendar.');
  const owner = row.tenant_id;
  const targets = await all
    .selectFrom('service_level_target')
    .select(['work_unit_type_id', 'severity_id', 'response_seconds', 'resolution_seconds'])
    .where((eb) => (owner === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', owner)))
    .orderBy('work_unit_type_id')
    .orderBy('severity_id')
    .execute();
  return {
    owner,
    row,
    calendar: {
      timeZone: row.time_zone,
      hours: hoursOf(row.business_hours),
      holidays: new Set(row.holidays),
    },
    pauseStates: new Set(row.pause_state_ids),
    targets: targets.map((target) => ({
      workUnitTypeId: target.work_unit_type_id,
      severityId: target.severity_id,
      responseSeconds: target.response_seconds,
      resolutionSeconds: target.resolution_seconds,
    })),
  };
}
