import { describe, expect, it } from 'vitest';
import type { GridColDef } from '@mui/x-data-grid';
import {
  ACTIONS_FIELD,
  activeFilterCount,
  exportColumns,
  fieldsFromColumns,
  fromGridFilterModel,
  fromGridSortModel,
  gridChangedFilterModel,
  narrowColumns,
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

describe('narrowColumns (a screen under 768 px)', () => {
  const columns: GridColDef[] = [
    { field: 'workUnitId', width: 80 },
    { field: 'tenant', width: 130 },
    { field: 'title', flex: 1, minWidth: 240 },
    { field: ACTIONS_FIELD, width: 120 },
  ];

  it('hides all but the essential columns, shrinks fixed widths, keeps row actions whole and drops the flexible minimum', () => {
    const narrow = narrowColumns(columns, ['workUnitId', 'title', ACTIONS_FIELD], {});
    expect(narrow.visibility).toEqual({ tenant: false });
    expect(narrow.columns.map((column) => [column.field, column.width, column.minWidth])).toEqual([
      ['workUnitId', 60, undefined],
      ['tenant', 98, undefined],
      ['title', undefined, undefined],
      [ACTIONS_FIELD, 120, undefined],
    ]);
  });

  it("the user's own choices win, and only choices are kept: never the narrow start, which would hide columns on a wide screen", () => {
    const narrow = narrowColumns(columns, ['workUnitId', 'title'], { title: false });
    expect(narrow.visibility).toEqual({ tenant: false, [ACTIONS_FIELD]: false, title: false });
    // The user shows Tenant in the column panel.
    expect(narrow.chosenFrom({ tenant: true, [ACTIONS_FIELD]: false, title: false })).toEqual({
      tenant: true,
      title: false,
    });
    // And shows Title again.
    expect(narrow.chosenFrom({ tenant: false, [ACTIONS_FIELD]: false, title: true })).toEqual({});
  });

  // Devices on a 375 px phone: six essential columns that need more than the grid's 340 px.
  const devices: GridColDef[] = [
    { field: 'name', flex: 1, minWidth: 140 },
    { field: 'cpuPercent', width: 75 },
    { field: 'packetTimestamp', width: 90 },
    { field: 'isOnline', width: 95 },
    { field: 'location', flex: 0.8 },
    { field: 'enabled', width: 75 },
    { field: ACTIONS_FIELD, width: 140 },
  ];
  const essential = ['name', 'cpuPercent', 'packetTimestamp', 'isOnline', 'enabled', ACTIONS_FIELD];
  const least = (column: GridColDef) => (column.field === 'enabled' ? 79 : 40);

  it('when the essential columns need more than the width, fixed ones shrink to their least width, then give way from the last listed back (the first one and the row actions never)', () => {
    const narrow = narrowColumns(devices, essential, {}, { available: 340, least });
    // At their least widths name 100 + CPU 40 + Age 40 + actions 140 = 320: Enabled and Online gave way.
    expect(narrow.visibility).toEqual({ location: false, enabled: false, isOnline: false });
    const width = (field: string) => narrow.columns.find((column) => column.field === field)?.width;
    expect([width('cpuPercent'), width('packetTimestamp'), width(ACTIONS_FIELD)]).toEqual([47, 52, 140]);
    expect(narrow.columns.find((column) => column.field === 'name')?.minWidth).toBe(100);
    // A wider phone keeps more of them, each shrunk by its share of what the width lacks (in whole pixels, never one too many).
    const wider = narrowColumns(devices, essential, {}, { available: 460, least });
    expect(wider.visibility).toEqual({ location: false });
    expect(wider.columns.map((column) => column.width ?? column.minWidth)).toEqual([100, 44, 47, 48, 100, 79, 140]);
  });

  it("a fixed column is never narrower than its header's width, and the user's shown columns never give way", () => {
    const narrow = narrowColumns(devices, essential, { isOnline: true }, { available: 340, least });
    expect(narrow.columns.find((column) => column.field === 'enabled')?.width).toBe(79);
    expect(narrow.visibility).toEqual({ location: false, isOnline: true, enabled: false, packetTimestamp: false });
    // Showing Enabled in the column panel is kept as a choice; the columns that gave way are not.
    expect(narrow.chosenFrom({ ...narrow.visibility, enabled: true })).toEqual({ isOnline: true, enabled: true });
  });

  it('the name or title gives way to no other column, wherever it is listed; other flexible columns do', () => {
    const software: GridColDef[] = [
      { field: 'id', width: 80 },
      { field: 'name', flex: 2, minWidth: 160 },
      { field: 'version', flex: 1 },
      { field: 'deviceName', flex: 1 },
    ];
    const narrow = narrowColumns(software, ['id', 'name', 'version', 'deviceName'], {}, { available: 300, least });
    expect(narrow.visibility).toEqual({ deviceName: false });
    expect(
      narrowColumns(software, ['id', 'name', 'version', 'deviceName'], {}, { available: 100, least }).visibility,
    ).toEqual({
      deviceName: false,
      version: false,
    });
  });

  it('where the columns that never give way need more than the width, the title gives up reading width down to 64 px', () => {
    const outbox: GridColDef[] = [
      { field: 'created', width: 230, minWidth: 230 },
      { field: 'subject', flex: 1 },
      { field: 'transport', width: 100 },
    ];
    const narrow = narrowColumns(outbox, ['created', 'subject', 'transport'], {}, { available: 330, least });
    expect(narrow.visibility).toEqual({ transport: false });
    expect(narrow.columns.map((column) => [column.field, column.width ?? column.minWidth])).toEqual([
      ['created', 230],
      ['subject', 100],
      ['transport', 75],
    ]);
    expect(narrowColumns(outbox, ['created', 'subject'], {}, { available: 250, least }).columns[1]?.minWidth).toBe(64);
    // A header is never cut: a title whose header needs 110 px keeps them.
    const wideHeader = (column: GridColDef) => (column.field === 'subject' ? 110 : least(column));
    const kept = narrowColumns(outbox, ['created', 'subject'], {}, { available: 250, least: wideHeader });
    expect(kept.columns[1]?.minWidth).toBe(110);
  });

  it('while the width is unknown nothing gives way', () => {
    expect(narrowColumns(devices, essential, {}, { available: 0, least }).visibility).toEqual({ location: false });
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
