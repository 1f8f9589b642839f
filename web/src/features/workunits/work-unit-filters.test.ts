import { describe, expect, it } from 'vitest';
import { FINISHED_STATES, WORK_UNIT_SEARCH_FIELDS } from '@cfs/contracts/values/work-units';
import { toODataParams } from '../../lib/list-query';
import { applyListChange, BASE_LIST_STATE, type ListState } from '../../lib/list-state';
import {
  addChipValues,
  builtInViews,
  chipsOf,
  DEFAULT_FILTERS,
  LIST_DEFAULTS,
  otherFilterChips,
  removeChip,
  setChip,
  WORK_UNIT_FIELDS,
  workUnitsFixedFilter,
} from './work-unit-filters';

const TENANT = '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b';
const defaults: ListState = { ...BASE_LIST_STATE, ...LIST_DEFAULTS };
const resource = (filters = defaults.filters) => ({
  fields: WORK_UNIT_FIELDS,
  searchFields: WORK_UNIT_SEARCH_FIELDS,
  fixedFilter: workUnitsFixedFilter(filters),
  expand: 'tenant,workUnitType',
});

describe('the work units list query', () => {
  it('by default lists New incidents, severity ascending then created descending', () => {
    const query = toODataParams(defaults, resource());
    expect(query.$filter).toBe('stateId in (1) and workUnitTypeId in (1)');
    expect(query.$orderby).toBe('severityId asc, created desc');
  });

  it('hides Resolved, Closed and Canceled while no State chip is set', () => {
    const filters = setChip(defaults.filters, 'stateId', []);
    expect(toODataParams({ ...defaults, filters }, resource(filters)).$filter).toBe(
      'not (stateId in (6,7,8)) and workUnitTypeId in (1)',
    );
    expect(workUnitsFixedFilter([])).toBe('not (stateId in (6,7,8))');
  });

  it('shows finished units when a State chip asks for them', () => {
    const filters = setChip(defaults.filters, 'stateId', [6, 8]);
    expect(workUnitsFixedFilter(filters)).toBeUndefined();
    expect(toODataParams({ ...defaults, filters }, resource(filters)).$filter).toBe(
      'stateId in (6,8) and workUnitTypeId in (1)',
    );
  });

  it('narrows to a protocol given in the address', () => {
    expect(workUnitsFixedFilter(DEFAULT_FILTERS, 7)).toBe('protocolId eq 7');
  });

  it('sorts the Tenant column by tenant name', () => {
    expect(toODataParams({ ...defaults, sort: [{ field: 'tenant', direction: 'desc' }] }, resource()).$orderby).toBe(
      'tenant/name desc',
    );
  });

  it('searches the spec fields with contains, the id only for a number, and exactly with Exact Match', () => {
    const text = toODataParams({ ...defaults, filters: [], search: 'disk' }, resource([])).$filter ?? '';
    expect(text).toContain("contains(tolower(title),'disk')");
    expect(text).toContain("contains(tolower(tenant/name),'disk')");
    expect(text).toContain("contains(tolower(stakeHolderEmailAddress),'disk')");
    expect(text).not.toContain('workUnitId');
    expect(toODataParams({ ...defaults, filters: [], search: '42' }, resource([])).$filter).toContain(
      'workUnitId eq 42',
    );
    expect(
      toODataParams({ ...defaults, filters: [], search: 'Disk', exactMatch: true }, resource([])).$filter,
    ).toContain("title eq 'Disk'");
  });

  it('filters a tenant chip by GUID', () => {
    const filters = addChipValues([], 'tenantId', [TENANT]);
    expect(toODataParams({ ...defaults, filters }, resource(filters)).$filter).toContain(`tenantId in (${TENANT})`);
  });
});

describe('the filter chips', () => {
  it('adds values to an existing chip without repeating them, in its place', () => {
    const filters = addChipValues(DEFAULT_FILTERS, 'stateId', [2, 1]);
    expect(chipsOf(filters)).toEqual([
      { field: 'stateId', values: [1, 2] },
      { field: 'workUnitTypeId', values: [1] },
    ]);
  });

  it('adds a chip for a new field at the end and removes one without values', () => {
    const added = addChipValues(DEFAULT_FILTERS, 'severityId', [0]);
    expect(chipsOf(added).map((chip) => chip.field)).toEqual(['stateId', 'workUnitTypeId', 'severityId']);
    expect(chipsOf(setChip(added, 'stateId', [])).map((chip) => chip.field)).toEqual(['workUnitTypeId', 'severityId']);
  });

  it('removes two chips one after the other, the second from what the first left', () => {
    // Both removals are made before the bar shows the first one (a quick user, a busy page).
    const afterFirst = applyListChange(defaults, { type: 'filters', filters: removeChip('stateId') }, defaults);
    const afterSecond = applyListChange(
      afterFirst,
      { type: 'filters', filters: removeChip('workUnitTypeId') },
      defaults,
    );
    expect(chipsOf(afterSecond.filters)).toEqual([]);
    expect(toODataParams(afterSecond, resource(afterSecond.filters)).$filter).toBe('not (stateId in (6,7,8))');
  });
});

describe('the built-in views', () => {
  it('"My groups" lists the units of any of the user\'s assignment groups and names them on its chip', () => {
    const view = builtInViews('operator@cfs.example', ['Service Desk', 'Network']).find(
      (item) => item.name === 'My groups',
    );
    expect(view).toBeDefined();
    const filters = view?.view.filters ?? [];
    expect(toODataParams({ ...defaults, filters }, resource(filters)).$filter).toBe(
      `not (stateId in (${FINISHED_STATES.join(',')})) and tolower(assignmentGroup) in ('service desk','network')`,
    );
    expect(otherFilterChips(filters).map((chip) => chip.label)).toEqual(['Assignment Group: Service Desk, Network']);
  });

  it('does not offer "My groups" to a user in no group', () => {
    expect(builtInViews('operator@cfs.example', []).map((item) => item.name)).toEqual(['Assigned to me']);
  });
});

describe('the Service Level chip', () => {
  it('sends its conditions as of the moment the list is read: clocks due within the hour, breached clocks', () => {
    const filters = setChip([], 'serviceLevel', ['breachingSoon', 'breached']);
    const before = Date.now();
    const query = toODataParams({ ...defaults, filters }, resource(filters));
    const [from, to] = [...(query.$filter ?? '').matchAll(/responseClock\/due (?:ge|le) (\S+?)\)?(?: |$)/g)].map(
      (match) => Date.parse(match[1]!),
    );
    expect(from).toBeGreaterThanOrEqual(before);
    expect(to! - from!).toBe(3_600_000);
    expect(query.$filter).toContain('(resolutionClock/due ge ');
    expect(query.$filter).toContain('(responseClock/breached ne null or resolutionClock/breached ne null)');
    expect(chipsOf(filters)).toEqual([{ field: 'serviceLevel', values: ['breachingSoon', 'breached'] }]);
    // A name the chip does not know (an old saved view's) sends nothing.
    const unknown = setChip([], 'serviceLevel', ['someday']);
    expect(toODataParams({ ...defaults, filters: unknown }, resource(unknown)).$filter).not.toContain('Clock');
  });

  it('sorts the clock columns by when the clock is due', () => {
    const query = toODataParams({ ...defaults, sort: [{ field: 'resolutionDue', direction: 'asc' }] }, resource());
    expect(query.$orderby).toBe('resolutionClock/due asc');
  });
});
