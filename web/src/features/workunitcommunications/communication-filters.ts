import { COMMUNICATION_STATUSES, type CommunicationStatus } from '@cfs/contracts/communications';
import type { FieldSpec, FilterItem, SortItem } from '../../lib/list-query';

/**
 * The communications list's query rules (spec 001 §2, §9; 000 §7): created descending, search on
 * title or current impact, and the filters of the list query: tenant, status, and the created,
 * next update and resolved date ranges (start on or after, end on or before), plus whether the
 * next update is overdue. Pure, so the rules are unit-tested.
 */

export const DEFAULT_SORT: readonly SortItem[] = [{ field: 'created', direction: 'desc' }];

export const SEARCH_FIELDS = ['title', 'currentImpact'] as const;

/** Kinds and server paths of the grid's columns and of the filter panel's fields. */
export const COMMUNICATION_FIELDS: Readonly<Record<string, FieldSpec>> = {
  publicWorkUnitCommunicationId: { kind: 'number' },
  tenantId: { kind: 'guid' },
  tenant: { path: 'tenant/name' },
  status: { kind: 'enum' },
  // The ranges are calendar days in the user's time zone.
  created: { kind: 'date' },
  nextUpdate: { kind: 'date' },
  eventResolved: { kind: 'date' },
  isOverdue: { kind: 'boolean' },
};

export type DateRangeField = 'created' | 'nextUpdate' | 'eventResolved';
export const DATE_RANGES: readonly { field: DateRangeField; label: string }[] = [
  { field: 'created', label: 'Created' },
  { field: 'nextUpdate', label: 'Next Update' },
  { field: 'eventResolved', label: 'Resolved' },
];
export type RangeEnd = 'from' | 'to';

const rangeId = (field: DateRangeField, end: RangeEnd) => `${field}-${end}`;

function withItem(filters: readonly FilterItem[], id: string, item: FilterItem | null): FilterItem[] {
  const others = filters.filter((existing) => existing.id !== id);
  return item === null ? others : [...others, item];
}

/** The tenant filter's GUID, or '' for every tenant. */
export function tenantFilter(filters: readonly FilterItem[]): string {
  const value = filters.find((item) => item.id === 'tenantId')?.value;
  return typeof value === 'string' ? value : '';
}

export function setTenantFilter(filters: readonly FilterItem[], tenantId: string): FilterItem[] {
  return withItem(
    filters,
    'tenantId',
    tenantId === '' ? null : { id: 'tenantId', field: 'tenantId', operator: 'is', value: tenantId },
  );
}

/** The chosen statuses (any of them), none for every status. */
export function statusFilter(filters: readonly FilterItem[]): CommunicationStatus[] {
  const value = filters.find((item) => item.id === 'status')?.value;
  if (!Array.isArray(value)) return [];
  return COMMUNICATION_STATUSES.filter((status) => value.includes(status));
}

export function setStatusFilter(
  filters: readonly FilterItem[],
  statuses: readonly CommunicationStatus[],
): FilterItem[] {
  return withItem(
    filters,
    'status',
    statuses.length === 0 ? null : { id: 'status', field: 'status', operator: 'isAnyOf', value: [...statuses] },
  );
}

/** One end of a date range as the date input holds it (`YYYY-MM-DD`), '' when open. */
export function rangeFilter(filters: readonly FilterItem[], field: DateRangeField, end: RangeEnd): string {
  const value = filters.find((item) => item.id === rangeId(field, end))?.value;
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '';
}

export function setRangeFilter(
  filters: readonly FilterItem[],
  field: DateRangeField,
  end: RangeEnd,
  day: string,
): FilterItem[] {
  const id = rangeId(field, end);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day);
  return withItem(
    filters,
    id,
    valid ? { id, field, operator: end === 'from' ? 'onOrAfter' : 'onOrBefore', value: day } : null,
  );
}

export function overdueFilter(filters: readonly FilterItem[]): boolean {
  return filters.some((item) => item.id === 'isOverdue' && item.value === true);
}

/** Beyond the spec: only communications whose next update is past. */
export function setOverdueFilter(filters: readonly FilterItem[], overdue: boolean): FilterItem[] {
  return withItem(
    filters,
    'isOverdue',
    overdue ? { id: 'isOverdue', field: 'isOverdue', operator: 'is', value: true } : null,
  );
}

/** How many of the panel's filters are set: the "Filters (n)" count. */
export function activeFilterCount(filters: readonly FilterItem[]): number {
  return (
    (tenantFilter(filters) ? 1 : 0) +
    (statusFilter(filters).length > 0 ? 1 : 0) +
    DATE_RANGES.reduce(
      (count, range) =>
        count + (rangeFilter(filters, range.field, 'from') ? 1 : 0) + (rangeFilter(filters, range.field, 'to') ? 1 : 0),
      0,
    ) +
    (overdueFilter(filters) ? 1 : 0)
  );
}
