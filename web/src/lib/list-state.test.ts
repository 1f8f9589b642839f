import { describe, expect, it } from 'vitest';
import {
  applyListChange,
  BASE_LIST_STATE,
  isHistoryStep,
  parseListState,
  replaceFilter,
  serializeListState,
  showsView,
  type ListChange,
  type ListState,
} from './list-state';

const defaults: ListState = { ...BASE_LIST_STATE, sort: [{ field: 'created', direction: 'desc' }] };
const onPage3: ListState = { ...defaults, page: 3 };

describe('the list state in the address', () => {
  it('uses the defaults when the parameter is absent, empty or not JSON', () => {
    expect(parseListState(null, defaults)).toBe(defaults);
    expect(parseListState('', defaults)).toBe(defaults);
    expect(parseListState('{not json', defaults)).toBe(defaults);
    expect(parseListState('[1,2]', defaults)).toBe(defaults);
  });

  it('round-trips a full state so that a link reproduces the screen', () => {
    const state: ListState = {
      page: 2,
      pageSize: 25,
      sort: [
        { field: 'severityId', direction: 'asc' },
        { field: 'created', direction: 'desc' },
      ],
      filters: [
        { id: 1, field: 'stateId', operator: 'is', value: 1 },
        { field: 'title', operator: 'isEmpty' },
      ],
      search: "O'Neil & co",
      exactMatch: true,
      columns: { phone: false },
      allTenants: true,
    };
    const text = serializeListState(state, defaults);
    expect(text).not.toBeNull();
    expect(parseListState(text, defaults)).toEqual(state);
    // and through the address bar's encoding
    const params = new URLSearchParams({ search: text ?? '' });
    expect(parseListState(new URLSearchParams(params.toString()).get('search'), defaults)).toEqual(state);
  });

  it('choosing All tenants, or the tenant in the path again, goes back to the first page', () => {
    const all = applyListChange(onPage3, { type: 'allTenants', allTenants: true }, defaults);
    expect(all).toEqual({ ...defaults, allTenants: true, page: 0 });
    expect(applyListChange({ ...all, page: 2 }, { type: 'allTenants', allTenants: false }, defaults)).toEqual(defaults);
    expect(parseListState('{"allTenants":"yes"}', defaults).allTenants).toBe(false);
  });

  it('writes no parameter while the state is the defaults', () => {
    expect(serializeListState(defaults, defaults)).toBeNull();
    expect(serializeListState(onPage3, defaults)).toBe(JSON.stringify(onPage3));
  });

  it('falls back per part: a bad page keeps the good sort', () => {
    const parsed = parseListState(JSON.stringify({ page: -1, sort: [{ field: 'name', direction: 'asc' }] }), defaults);
    expect(parsed.page).toBe(0);
    expect(parsed.sort).toEqual([{ field: 'name', direction: 'asc' }]);
    expect(parsed.filters).toEqual([]);
  });

  it('rejects a page size the grid does not offer, but keeps the screen default', () => {
    expect(parseListState('{"pageSize":7}', defaults).pageSize).toBe(10);
    expect(parseListState('{"pageSize":100000}', defaults).pageSize).toBe(10);
    expect(parseListState('{"pageSize":50}', defaults).pageSize).toBe(50);
    expect(parseListState('{"pageSize":25}', { ...BASE_LIST_STATE, pageSize: 25 }, [50, 100]).pageSize).toBe(25);
  });

  it('rejects malformed sort and filter items', () => {
    expect(parseListState('{"sort":[{"field":"a","direction":"sideways"}]}', defaults).sort).toEqual(defaults.sort);
    expect(parseListState('{"filters":[{"field":"a"}]}', defaults).filters).toEqual([]);
    expect(parseListState('{"exactMatch":"yes","search":5}', defaults)).toEqual(defaults);
  });
});

describe('changes to the list', () => {
  it('goes back to page 0 on a new search, sort, filter or page size', () => {
    expect(applyListChange(onPage3, { type: 'search', search: 'disk', exactMatch: false }, defaults)).toMatchObject({
      page: 0,
      search: 'disk',
    });
    expect(applyListChange(onPage3, { type: 'sort', sort: [] }, defaults).page).toBe(0);
    expect(
      applyListChange(
        onPage3,
        { type: 'filters', filters: [{ field: 'a', operator: 'contains', value: 'x' }] },
        defaults,
      ).page,
    ).toBe(0);
    expect(applyListChange(onPage3, { type: 'pageSize', pageSize: 50 }, defaults)).toMatchObject({
      page: 0,
      pageSize: 50,
    });
  });

  it('keeps the page for a filter edit that does not change the query', () => {
    const change = { type: 'filters', filters: [{ field: 'a', operator: 'contains' }], keepPage: true } as const;
    expect(applyListChange(onPage3, change, defaults)).toMatchObject({
      page: 3,
      filters: [{ field: 'a', operator: 'contains' }],
    });
  });

  it('applies filters given as a function to the filters the changes before it left', () => {
    const two: ListState = {
      ...defaults,
      filters: [
        { field: 'a', operator: 'is', value: 1 },
        { field: 'b', operator: 'is', value: 2 },
      ],
    };
    const without = (field: string): ListChange => ({
      type: 'filters',
      filters: (current) => current.filter((item) => item.field !== field),
    });
    // Two removals computed from the same list, one after the other: the second does not bring the first back.
    expect(applyListChange(applyListChange(two, without('a'), defaults), without('b'), defaults).filters).toEqual([]);
    expect(applyListChange(two, without('a'), defaults)).toMatchObject({ page: 0, filters: [{ field: 'b' }] });
  });

  it('puts one filter in place of those on its field, or removes them', () => {
    const current = [
      { field: 'a', operator: 'is', value: 1 },
      { field: 'b', operator: 'is', value: 2 },
    ];
    const item = { field: 'a', operator: 'is', value: 3 };
    expect(replaceFilter('a', item)(current)).toEqual([current[1], item]);
    expect(replaceFilter('a', undefined)(current)).toEqual([current[1]]);
    expect(replaceFilter('c', undefined)(current)).toEqual(current);
  });

  it('keeps the page when only the columns shown change', () => {
    expect(applyListChange(onPage3, { type: 'columns', columns: { city: false } }, defaults)).toMatchObject({
      page: 3,
      columns: { city: false },
    });
  });

  it('moves to a page and resets to the defaults', () => {
    expect(applyListChange(defaults, { type: 'page', page: 4 }, defaults).page).toBe(4);
    expect(applyListChange(onPage3, { type: 'reset' }, defaults)).toBe(defaults);
  });

  it('gives a sort, filter or search change its own history entry, and not paging, page size, columns or a filter without a value', () => {
    const steps: [ListChange, boolean][] = [
      [{ type: 'sort', sort: [] }, true],
      [{ type: 'filters', filters: [] }, true],
      [{ type: 'search', search: 'x', exactMatch: false }, true],
      [{ type: 'reset' }, true],
      [{ type: 'filters', filters: [], keepPage: true }, false],
      [{ type: 'page', page: 2 }, false],
      [{ type: 'pageSize', pageSize: 25 }, false],
      [{ type: 'columns', columns: {} }, false],
    ];
    for (const [change, step] of steps) expect(isHistoryStep(change), change.type).toBe(step);
  });
});

describe('saved views of a list', () => {
  const view = {
    filters: [{ id: 'assignedTo', field: 'assignedTo', operator: 'equals', value: 'me@cfs.example' }],
    sort: [{ field: 'severityId', direction: 'asc' as const }],
    columns: { tenant: false },
    search: 'router',
    exactMatch: false,
  };

  it('shows a view from the first page, with its own search', () => {
    const searched: ListState = {
      ...onPage3,
      search: 'switch',
      exactMatch: true,
      filters: [{ field: 'stateId', operator: 'isAnyOf', value: [1] }],
    };
    expect(applyListChange(searched, { type: 'view', view }, defaults)).toEqual({ ...searched, ...view, page: 0 });
  });

  it('knows the view the list shows, whatever order the keys come back in', () => {
    const shown = applyListChange(defaults, { type: 'view', view }, defaults);
    const fromDatabase = {
      exactMatch: false,
      columns: { tenant: false },
      search: 'router',
      sort: [{ direction: 'asc' as const, field: 'severityId' }],
      filters: [{ value: 'me@cfs.example', field: 'assignedTo', operator: 'equals', id: 'assignedTo' }],
    };
    expect(showsView(shown, fromDatabase)).toBe(true);
    expect(showsView({ ...shown, page: 2 }, view)).toBe(true);
    expect(showsView({ ...shown, search: 'x' }, view)).toBe(false);
    // A view without a search (built in, or saved before views kept it) leaves the search alone.
    const { search: _search, exactMatch: _exact, ...unsearched } = view;
    expect(showsView({ ...shown, search: 'x' }, unsearched)).toBe(true);
    expect(
      applyListChange({ ...defaults, search: 'x', exactMatch: true }, { type: 'view', view: unsearched }, defaults),
    ).toMatchObject({ search: 'x', exactMatch: true });
    expect(showsView({ ...shown, columns: {} }, view)).toBe(false);
    expect(showsView({ ...shown, filters: [] }, view)).toBe(false);
  });
});
