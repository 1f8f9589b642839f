import { describe, expect, it } from 'vitest';
import { buildFilter, toODataParams } from '../../lib/list-query';
import { BASE_LIST_STATE } from '../../lib/list-state';
import {
  activeFilterCount,
  COMMUNICATION_FIELDS,
  DEFAULT_SORT,
  overdueFilter,
  rangeFilter,
  SEARCH_FIELDS,
  setOverdueFilter,
  setRangeFilter,
  setStatusFilter,
  setTenantFilter,
  statusFilter,
  tenantFilter,
} from './communication-filters';

const TENANT = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const resource = { fields: COMMUNICATION_FIELDS, searchFields: SEARCH_FIELDS };

describe('communication filters', () => {
  it('sorts created descending and searches title or current impact (spec 001 §7)', () => {
    const query = toODataParams({ ...BASE_LIST_STATE, sort: DEFAULT_SORT, search: "o'k" }, resource);
    expect(query.$orderby).toBe('created desc');
    expect(query.$filter).toBe("(contains(tolower(title),'o''k') or contains(tolower(currentImpact),'o''k'))");
    expect(query.$top).toBe('10');
  });

  it('filters by tenant, statuses and overdue', () => {
    let filters = setTenantFilter([], TENANT);
    filters = setStatusFilter(filters, ['Investigating', 'Resolved']);
    filters = setOverdueFilter(filters, true);
    expect(tenantFilter(filters)).toBe(TENANT);
    expect(statusFilter(filters)).toEqual(['Investigating', 'Resolved']);
    expect(overdueFilter(filters)).toBe(true);
    const filter = buildFilter({ filters, search: '', exactMatch: false }, resource) ?? '';
    expect(filter).toContain(`tenantId eq ${TENANT}`);
    expect(filter).toMatch(
      /status in \('Investigating','Resolved'\)|status eq 'Investigating' or status eq 'Resolved'/,
    );
    expect(filter).toContain('isOverdue eq true');
    expect(activeFilterCount(filters)).toBe(3);
  });

  it('turns a date range into a start on or after and an end on or before (spec 000 §7)', () => {
    let filters = setRangeFilter([], 'created', 'from', '2026-03-01');
    filters = setRangeFilter(filters, 'created', 'to', '2026-03-31');
    filters = setRangeFilter(filters, 'eventResolved', 'from', '2026-04-02');
    expect(rangeFilter(filters, 'created', 'from')).toBe('2026-03-01');
    expect(rangeFilter(filters, 'nextUpdate', 'to')).toBe('');
    const filter = buildFilter({ filters, search: '', exactMatch: false }, resource) ?? '';
    expect(filter).toMatch(/created ge \d{4}-\d{2}-\d{2}T[\d:.]+Z/);
    expect(filter).toMatch(/created le \d{4}-\d{2}-\d{2}T[\d:.]+Z/);
    expect(filter).toMatch(/eventResolved ge /);
    expect(activeFilterCount(filters)).toBe(3);
  });

  it('clears a filter when its value is emptied', () => {
    let filters = setRangeFilter(setTenantFilter([], TENANT), 'nextUpdate', 'to', '2026-03-31');
    filters = setTenantFilter(filters, '');
    filters = setRangeFilter(filters, 'nextUpdate', 'to', '');
    filters = setStatusFilter(setOverdueFilter(filters, false), []);
    expect(filters).toEqual([]);
    expect(activeFilterCount(filters)).toBe(0);
  });
});
