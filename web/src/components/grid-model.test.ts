import { describe, expect, it } from 'vitest';
import type { GridColDef } from '@mui/x-data-grid';
import { activeFilterCount, exportColumns, fieldsFromColumns, fromGridFilterModel, fromGridSortModel, toGridFilterModel, toGridSortModel } from './grid-model';
import { guidFilterOperators } from './guid-filter';

interface Row {
  id: number;
}

describe('grid models and the list state', () => {
  it('reads each column\'s kind from its type, GUID columns from their operators, paths from the area', () => {
    const columns: GridColDef<Row>[] = [
      { field: 'name' },
      { field: 'effort', type: 'number' },
      { field: 'created', type: 'dateTime' },
      { field: 'expiresOn', type: 'date' },
      { field: 'isEnabled', type: 'boolean' },
      { field: 'stateId', type: 'singleSelect' },
      { field: 'deviceId', filterOperators: guidFilterOperators },
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
    expect(fromGridSortModel([{ field: 'name', sort: 'desc' }, { field: 'x', sort: null }])).toEqual([{ field: 'name', direction: 'desc' }]);
  });

  it('shows the grid the first filter item with an id and stores dates as ISO text', () => {
    expect(toGridFilterModel([{ field: 'a', operator: 'contains', value: 'x' }, { field: 'b', operator: 'isEmpty' }])).toEqual({
      items: [{ field: 'a', operator: 'contains', value: 'x', id: 0 }],
    });
    expect(
      fromGridFilterModel({ items: [{ id: 7, field: 'created', operator: 'after', value: new Date('2024-01-01T10:00:00.000Z') }, { field: 'a', operator: 'isEmpty' }] }),
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
    expect(exportColumns(columns, fields, { title: false }, 'all').map((column) => column.title)).toEqual(['ID', 'Tenant', 'Title', 'assignedTo']);
    const hidden = { workUnitId: false, tenant: false, title: false, assignedTo: false };
    expect(exportColumns(columns, fields, hidden, 'page')).toHaveLength(4);
  });
});
