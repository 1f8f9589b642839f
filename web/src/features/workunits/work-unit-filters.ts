import { FINISHED_STATES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import type { FieldSpec, FilterItem, SortItem } from '../../lib/list-query';
import type { BuiltInView } from '../../components/saved-views-bar';
import type { ListState } from '../../lib/list-state';

/**
 * The work units list's query rules (spec 001 §2 "Work units list", §9): default sort, the
 * filter chips, the hidden finished states. Pure, so the rules are unit-tested.
 */

export const DEFAULT_SORT: readonly SortItem[] = [
  { field: 'severityId', direction: 'asc' },
  { field: 'created', direction: 'desc' },
];

/** A field the chip bar filters on; each chip holds the chosen values of one field (OR-ed). */
export type ChipField = 'stateId' | 'severityId' | 'workUnitTypeId' | 'tenantId' | 'serviceLevel';
export const CHIP_FIELDS: readonly { field: ChipField; label: string }[] = [
  { field: 'stateId', label: 'State' },
  { field: 'severityId', label: 'Severity' },
  { field: 'workUnitTypeId', label: 'Type' },
  { field: 'tenantId', label: 'Tenant' },
  { field: 'serviceLevel', label: 'Service Level' },
];
export type ChipValue = string | number;

/** Default filter: state New plus the Incident type (spec 001 §2, §9). */
export const DEFAULT_FILTERS: readonly FilterItem[] = [
  { id: 'stateId', field: 'stateId', operator: 'isAnyOf', value: [WORK_UNIT_STATES.New] },
  { id: 'workUnitTypeId', field: 'workUnitTypeId', operator: 'isAnyOf', value: [WORK_UNIT_TYPES.Incident] },
];

export const LIST_DEFAULTS: Partial<ListState> = { sort: [...DEFAULT_SORT], filters: [...DEFAULT_FILTERS] };

const CLOCKS = ['responseClock', 'resolutionClock'] as const;

/**
 * The Service Level chip's conditions (docs/features/service-levels.md "In the list"): a running
 * clock due within the next hour, or a clock whose target was breached. Built when the list is
 * read, so a saved view keeps meaning "within the hour from now".
 */
export const SERVICE_LEVEL_CONDITIONS = {
  breachingSoon: (now: Date) => {
    const from = now.toISOString();
    const to = new Date(now.getTime() + 3_600_000).toISOString();
    return CLOCKS.map((clock) => `(${clock}/due ge ${from} and ${clock}/due le ${to})`).join(' or ');
  },
  breached: () => CLOCKS.map((clock) => `${clock}/breached ne null`).join(' or '),
} as const;

export const SERVICE_LEVEL_LABELS: Readonly<Record<keyof typeof SERVICE_LEVEL_CONDITIONS, string>> = {
  breachingSoon: 'Breaching Within 1 h',
  breached: 'Breached',
};

/** Kinds and server paths of the grid's columns and chip fields. */
export const WORK_UNIT_FIELDS: Readonly<Record<string, FieldSpec>> = {
  serviceLevel: { conditions: SERVICE_LEVEL_CONDITIONS },
  // The clock columns sort by when the clock is due.
  responseDue: { path: 'responseClock/due' },
  resolutionDue: { path: 'resolutionClock/due' },
  stateId: { kind: 'enum' },
  severityId: { kind: 'enum' },
  workUnitTypeId: { kind: 'enum' },
  tenantId: { kind: 'guid' },
  // Sorting on the Tenant column is sent as the tenant's name (spec 001 §2).
  tenant: { path: 'tenant/name' },
  workUnitType: { path: 'workUnitType/name' },
};

/** The values a chip holds (numbers or GUID texts). */
export function chipValues(item: FilterItem | undefined): ChipValue[] {
  if (!item || !Array.isArray(item.value)) return [];
  return item.value.filter(
    (value: unknown): value is ChipValue => typeof value === 'number' || typeof value === 'string',
  );
}

function isChipField(field: string): field is ChipField {
  return CHIP_FIELDS.some((chip) => chip.field === field);
}

/** The chips of the bar: the filter items of chip fields that hold values. */
export function chipsOf(filters: readonly FilterItem[]): { field: ChipField; values: ChipValue[] }[] {
  return filters.flatMap((item) => {
    const values = chipValues(item);
    return isChipField(item.field) && values.length > 0 ? [{ field: item.field, values }] : [];
  });
}

/** Sets the values of one chip, in its place; no values removes the chip. */
export function setChip(filters: readonly FilterItem[], field: ChipField, values: readonly ChipValue[]): FilterItem[] {
  const unique = [...new Set(values)];
  const item: FilterItem = { id: field, field, operator: 'isAnyOf', value: unique };
  const at = filters.findIndex((existing) => existing.field === field);
  const others = filters.filter((existing) => existing.field !== field);
  if (unique.length === 0) return others;
  if (at < 0) return [...others, item];
  return [...others.slice(0, at), item, ...others.slice(at)];
}

/**
 * The removal of one chip, as a change to the filters current when it is applied (not to those
 * a render saw): `list.setFilters(removeChip('stateId'))`.
 */
export function removeChip(field: ChipField): (filters: readonly FilterItem[]) => FilterItem[] {
  return (filters) => setChip(filters, field, []);
}

/** Adds values to a chip, creating it when the field has none yet. */
export function addChipValues(
  filters: readonly FilterItem[],
  field: ChipField,
  values: readonly ChipValue[],
): FilterItem[] {
  const current = chipValues(filters.find((item) => item.field === field));
  return setChip(filters, field, [...current, ...values]);
}

/**
 * What the list always adds: without a State chip, Resolved, Closed and Canceled are hidden
 * (spec 001 §2 "The default list hides Resolved, Closed and Canceled units"); a protocolId in
 * the address narrows the list to that protocol's units.
 */
export function workUnitsFixedFilter(
  filters: readonly FilterItem[],
  protocolId: number | null = null,
): string | undefined {
  const parts: string[] = [];
  if (chipValues(filters.find((item) => item.field === 'stateId')).length === 0)
    parts.push(`not (stateId in (${FINISHED_STATES.join(',')}))`);
  if (protocolId !== null) parts.push(`protocolId eq ${protocolId}`);
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

/**
 * The views every user has above the chips, in the default order, every column shown:
 * "Assigned to me" (the units assigned to the user's mail, as the "(ack)" link assigns them) and
 * "My groups" (the units whose Assignment Group is one of the user's groups). A user in no group
 * is not offered "My groups": with no values the filter would drop out and list every unit.
 */
export function builtInViews(me: string, groups: readonly string[] = []): BuiltInView[] {
  const views: BuiltInView[] = [
    {
      name: 'Assigned to me',
      view: {
        filters: [{ id: 'assignedTo', field: 'assignedTo', operator: 'equals', value: me }],
        sort: [...DEFAULT_SORT],
        columns: {},
      },
    },
  ];
  if (groups.length > 0) {
    views.push({
      name: 'My groups',
      view: {
        filters: [{ id: 'assignmentGroup', field: 'assignmentGroup', operator: 'isAnyOf', value: [...groups] }],
        sort: [...DEFAULT_SORT],
        columns: {},
      },
    });
  }
  return views;
}

const OTHER_FILTER_LABELS: Readonly<Record<string, string>> = {
  assignedTo: 'Assigned To',
  assignmentGroup: 'Assignment Group',
};

/** Filters a view brings that have no chip of their own (Assigned To, Assignment Group), shown as "Assigned To: value". */
export function otherFilterChips(filters: readonly FilterItem[]): { field: string; label: string }[] {
  return filters.flatMap((item) => {
    if (
      isChipField(item.field) ||
      item.value === undefined ||
      item.value === '' ||
      (Array.isArray(item.value) && item.value.length === 0)
    )
      return [];
    const value = Array.isArray(item.value) ? item.value.map(String).join(', ') : String(item.value);
    return [{ field: item.field, label: `${OTHER_FILTER_LABELS[item.field] ?? item.field}: ${value}` }];
  });
}
