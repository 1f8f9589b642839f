import { FINISHED_STATES, WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import type { FilterItem } from '../../lib/list-query';

/**
 * Where each Home figure leads: the area's screen with the list filters that give the same rows,
 * written in the list state's address form (`?search=` holding the JSON of the filters, see
 * lib/list-state.ts), so the screen opens already filtered. Pure, so the links are unit-tested.
 */
function filtered(path: string, filters: readonly FilterItem[], extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...extra, search: JSON.stringify({ filters }) });
  return `${path}?${params.toString()}`;
}

/** The states a work unit is open in: all but Resolved, Closed and Canceled. */
export const OPEN_STATES: readonly number[] = Object.values(WORK_UNIT_STATES).filter(
  (state) => !FINISHED_STATES.includes(state),
);

/** The work units grid showing the open work units, of one severity and one state when given. */
export function workUnitsHref(tenantId: string, options: { severityId?: number; stateId?: number } = {}): string {
  const filters: FilterItem[] = [
    {
      id: 'stateId',
      field: 'stateId',
      operator: 'isAnyOf',
      value: options.stateId === undefined ? [...OPEN_STATES] : [options.stateId],
    },
  ];
  if (options.severityId !== undefined)
    filters.push({ id: 'severityId', field: 'severityId', operator: 'isAnyOf', value: [options.severityId] });
  return filtered(`/${tenantId}/workunitsv2`, filters);
}

/** The devices grid, showing only the online or only the offline devices. */
export function devicesHref(tenantId: string, online: boolean): string {
  return filtered(`/${tenantId}/devices`, [
    { id: 'isOnline', field: 'isOnline', operator: 'is', value: String(online) },
  ]);
}

/** The version report, where each out-of-date installation is listed. */
export function versionReportHref(tenantId: string): string {
  return `/${tenantId}/versionreport`;
}

/** The rules screen, with one rule's matches open when given. */
export function ruleMatchesHref(tenantId: string, ruleId?: string): string {
  return ruleId
    ? `/${tenantId}/rules?${new URLSearchParams({ ruleMatchesId: ruleId }).toString()}`
    : `/${tenantId}/rules`;
}

/** The communications grid with its Overdue switch on (the filter item that switch writes). */
export function overdueCommunicationsHref(tenantId: string): string {
  return filtered(`/${tenantId}/workunitcommunications`, [
    { id: 'isOverdue', field: 'isOverdue', operator: 'is', value: true },
  ]);
}

/** The compliance checklist of one control set, at the week given by its first day. */
export function complianceHref(tenantId: string, controlSetId: string, weekStart: string): string {
  return `/${tenantId}/compliance?${new URLSearchParams({ controlSetId, week: weekStart }).toString()}`;
}
