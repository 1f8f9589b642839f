import { describe, expect, it } from 'vitest';
import type { GridColDef } from '@mui/x-data-grid';
import {
  activeFilterCount,
  exportColumns,
  fieldsFromColumns,
  fromGridFilterModel,
  fromGridSortModel,
  gridChangedFilterModel,
  startShownFilterModel,
  stateChangedFilterModel,
  toGridFilterModel,
  toGridSortModel,
} from './grid-model';
import { guidFilterOperators } from './guid-filter';

interface Row {
  id: number;
}

describe('grid models and the list state', () => {
  it("reads each column's kind from its type, GUID columns from their operators, paths from the area", () => {
    const columns: GridColDef<Row>[] = [
      { field: 'name' },
      { field: 'effort', type: 'number' },
      { field: 'created', type: 'dateTime' },
      { field: 'expiresOn', type: 'date' },
      { field: 'isEnabled', type: 'boolean' },
      { field: 'stateId', type: 'singleSelect' },
      { field: 'deviceId', filterOperators: guidFilterOperators },
      // An area's copy or subset of the GUID operators is still a GUID column (never `tolower`).
      { field: 'sourceId', filterOperators: [...guidFilterOperators] },
      { field: 'ownerId', filterOperators: guidFilterOperators.slice(0, 2) },
      { field: 'tenant' },
    ];
    expect(fieldsFromColumns(columns, { tenant: { path: 'tenant/name' }, extra: { kind: 'number' } })).toEqual({
      name: { kind: 'string' },
      effort: { kind: 'number' },
      created: { kind: 'dateTime' },
      expiresOn: { kind: 'date' },
      isEnabled: { kind: 'boolean' },
      stateId: { kind: 'enum' },
      deviceId: { kind: 'guid' },
      sourceId: { kind: 'guid' },
      ownerId: { kind: 'guid' },
      tenant: { kind: 'string', path: 'tenant/name' },
      extra: { kind: 'number' },
    });
  });

  it('shows the community grid the first sort item and reads its model back', () => {
    expect(
      toGridSortModel([
        { field: 'severityId', direction: 'asc' },
        { field: 'created', direction: 'desc' },
      ]),
    ).toEqual([{ field: 'severityId', sort: 'asc' }]);
    expect(
      fromGridSortModel([
        { field: 'name', sort: 'desc' },
        { field: 'x', sort: null },
      ]),
    ).toEqual([{ field: 'name', direction: 'desc' }]);
  });

  it('shows the grid the first filter item with an id and stores dates as ISO text', () => {
    expect(
      toGridFilterModel([
        { field: 'a', operator: 'contains', value: 'x' },
        { field: 'b', operator: 'isEmpty' },
      ]),
    ).toEqual({
      items: [{ field: 'a', operator: 'contains', value: 'x', id: 0 }],
    });
    expect(
      fromGridFilterModel({
        items: [
          { id: 7, field: 'created', operator: 'after', value: new Date('2024-01-01T10:00:00.000Z') },
          { field: 'a', operator: 'isEmpty' },
        ],
      }),
    ).toEqual([
      { id: 7, field: 'created', operator: 'after', value: '2024-01-01T10:00:00.000Z' },
      { field: 'a', operator: 'isEmpty' },
    ]);
  });
});

describe('activeFilterCount', () => {
  it('counts the items that narrow the list: with a value, or an operator that needs none', () => {
    expect(
      activeFilterCount([
        { field: 'isEnabled', operator: 'is', value: true },
        { field: 'isEnabled', operator: 'is', value: false },
        { field: 'name', operator: 'contains' },
        { field: 'name', operator: 'contains', value: '' },
        { field: 'name', operator: 'isEmpty' },
        { field: 'tenantId', operator: 'isAnyOf', value: [] },
        { field: 'tenantId', operator: 'isAnyOf', value: ['a'] },
      ]),
    ).toBe(4);
  });

  it('exports the visible columns for a page and every column for all, in the grid order, under their titles and server paths', () => {
    const columns: GridColDef<Row>[] = [
      { field: 'workUnitId', headerName: 'ID' },
      { field: 'tenant', headerName: 'Tenant' },
      { field: 'title', headerName: 'Title' },
      { field: 'assignedTo' },
      { field: '__actions', headerName: 'Actions', disableExport: true },
    ];
    const fields = fieldsFromColumns(columns, { tenant: { path: 'tenant/name' } });
    expect(exportColumns(columns, fields, { title: false }, 'page')).toEqual([
      { field: 'workUnitId', title: 'ID' },
      { field: 'tenant/name', title: 'Tenant' },
      { field: 'assignedTo', title: 'assignedTo' },
    ]);
    expect(exportColumns(columns, fields, { title: false }, 'all').map((column) => column.title)).toEqual([
      'ID',
      'Tenant',
      'Title',
      'assignedTo',
    ]);
    const hidden = { workUnitId: false, tenant: false, title: false, assignedTo: false };
    expect(exportColumns(columns, fields, hidden, 'page')).toHaveLength(4);
  });
});

describe('the filter model the grid is shown', () => {
  // The list state's model as the grid is given it: parsed from the address, a new object each time.
  const fromState = (...items: { id: number; field: string; operator: string; value?: string }[]) =>
    toGridFilterModel(JSON.parse(JSON.stringify(items)) as typeof items);

  it("keeps the grid's own model while the state catches up with its changes one by one", () => {
    const chosen = { items: [{ id: 7, field: 'deviceId', operator: 'equals' }] };
    const typed = { items: [{ id: 7, field: 'deviceId', operator: 'equals', value: 'not-a-guid' }] };
    let shown = startShownFilterModel(fromState());
    shown = gridChangedFilterModel(shown, chosen);
    shown = gridChangedFilterModel(shown, typed);
    // The column chosen comes back while the value is already typed: the typed model stays.
    shown = stateChangedFilterModel(shown, fromState({ id: 7, field: 'deviceId', operator: 'equals' }));
    expect(shown.model).toBe(typed);
    expect(shown.pending).toHaveLength(1);
    // Then the typed value comes back: still the grid's object (its value box is not reset).
    const caughtUp = fromState({ id: 7, field: 'deviceId', operator: 'equals', value: 'not-a-guid' });
    shown = stateChangedFilterModel(shown, caughtUp);
    expect(shown.model).toBe(typed);
    expect(shown.pending).toEqual([]);
    // A render with the same state changes nothing.
    expect(stateChangedFilterModel(shown, caughtUp)).toBe(shown);
  });

  it('shows a state the grid did not make (Back, a chip removed, a view) as it comes', () => {
    let shown = gridChangedFilterModel(startShownFilterModel(fromState()), {
      items: [{ id: 1, field: 'name', operator: 'contains', value: 'web' }],
    });
    const cleared = fromState();
    shown = stateChangedFilterModel(shown, cleared);
    expect(shown.model).toBe(cleared);
    expect(shown.pending).toEqual([]);
    const view = fromState({ id: 3, field: 'stateId', operator: 'is', value: '2' });
    expect(stateChangedFilterModel(shown, view).model).toBe(view);
  });
});
