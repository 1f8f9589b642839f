import type { GridColDef, GridFilterModel, GridSortModel, GridValidRowModel } from '@mui/x-data-grid';
import type { FieldKind, FieldSpec, FilterItem, SortItem } from '../lib/list-query';
import { isGuidFilterOperator } from './guid-filter';

/**
 * Translation between the MUI Data Grid's models and the list state. The community grid holds
 * one sort item and one filter item; the list state may hold more (a default sort on two
 * fields, an area's own filter bar), so the grid is shown the first and the query uses all.
 */

/**
 * The kind of a column's values, from its `type`. A GUID column is one whose filter operators
 * are the GUID ones (`guidFilterOperators`, or a copy or subset of them): its values are
 * compared by equality, bare, never through `tolower` (which the server takes on texts only).
 */
export function fieldKindOfColumn<R extends GridValidRowModel>(column: GridColDef<R>): FieldKind {
  if (column.filterOperators?.some(isGuidFilterOperator)) return 'guid';
  switch (column.type) {
    case 'number':
      return 'number';
    case 'date':
      return 'date';
    case 'dateTime':
      return 'dateTime';
    case 'boolean':
      return 'boolean';
    case 'singleSelect':
      return 'enum';
    default:
      return 'string';
  }
}

/** Field specs for the query: each column's kind, then the area's own specs (paths) over them. */
export function fieldsFromColumns<R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  overrides: Readonly<Record<string, FieldSpec>> = {},
): Record<string, FieldSpec> {
  const fields: Record<string, FieldSpec> = {};
  for (const column of columns) fields[column.field] = { kind: fieldKindOfColumn(column) };
  for (const [field, spec] of Object.entries(overrides)) fields[field] = { ...fields[field], ...spec };
  return fields;
}

export function toGridSortModel(sort: readonly SortItem[]): GridSortModel {
  return sort.slice(0, 1).map((item) => ({ field: item.field, sort: item.direction }));
}

export function fromGridSortModel(model: GridSortModel): SortItem[] {
  return model.flatMap((item) => (item.sort ? [{ field: item.field, direction: item.sort }] : []));
}

export function toGridFilterModel(filters: readonly FilterItem[]): GridFilterModel {
  return { items: filters.slice(0, 1).map((item, index) => ({ ...item, id: item.id ?? index })) };
}

export function fromGridFilterModel(model: GridFilterModel): FilterItem[] {
  return model.items.map((item) => {
    const copy: FilterItem = { field: item.field, operator: item.operator };
    if (item.id !== undefined) copy.id = item.id;
    if (item.value !== undefined) copy.value = item.value instanceof Date ? item.value.toISOString() : item.value;
    return copy;
  });
}

/**
 * The filter model the grid is shown. A change made in the grid reaches the list state through
 * the address a render or more later, so the state can still hold an earlier change of the
 * grid's while the user goes on (a column chosen, then a value typed): shown then, it would
 * empty the value box. The grid keeps the model it made until the state has caught up with it;
 * a state that is none of the grid's changes (Back, a chip removed, a saved view) is shown as
 * it comes.
 */
export interface ShownFilterModel {
  /** What the grid is given. */
  readonly model: GridFilterModel;
  /** The list state's model this was last reconciled with. */
  readonly from: GridFilterModel;
  /** The grid's changes not yet seen in the list state, oldest first, by content. */
  readonly pending: readonly string[];
}

/** A filter model's content as the list state keeps it (the grid's first item). */
function filterContent(model: GridFilterModel): string {
  return JSON.stringify(fromGridFilterModel(model).slice(0, 1));
}

export function startShownFilterModel(fromState: GridFilterModel): ShownFilterModel {
  return { model: fromState, from: fromState, pending: [] };
}

/** After the grid changed its filter model. */
export function gridChangedFilterModel(shown: ShownFilterModel, model: GridFilterModel): ShownFilterModel {
  return { model, from: shown.from, pending: [...shown.pending, filterContent(model)] };
}

/** After the list state's model changed: an echo of the grid's changes keeps its model, any other is shown. */
export function stateChangedFilterModel(shown: ShownFilterModel, fromState: GridFilterModel): ShownFilterModel {
  if (shown.from === fromState) return shown;
  const echo = shown.pending.indexOf(filterContent(fromState));
  return echo < 0
    ? startShownFilterModel(fromState)
    : { model: shown.model, from: fromState, pending: shown.pending.slice(echo + 1) };
}

/** One column of a CSV export as the server takes it (`columns`): a field path and its header. */
export interface ExportColumn {
  field: string;
  title: string;
}

/**
 * The columns a CSV export writes, in the grid's order, under the grid's titles: the visible ones
 * for Export Page (what the user sees), every one for Export All. Columns that hold no data of
 * the row (`disableExport`, e.g. row actions) are left out; a column's server path comes from its
 * field spec (`tenant` → `tenant/name`).
 */
export function exportColumns<R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  fields: Readonly<Record<string, FieldSpec>>,
  visibility: Readonly<Record<string, boolean>>,
  scope: 'page' | 'all',
): ExportColumn[] {
  const exported = columns.filter((column) => !column.disableExport);
  const shown = scope === 'page' ? exported.filter((column) => visibility[column.field] !== false) : exported;
  // Every column hidden: the page's rows with every column rather than an empty file.
  return (shown.length > 0 ? shown : exported).map((column) => ({
    field: fields[column.field]?.path ?? column.field,
    title: column.headerName ?? column.field,
  }));
}

/** Filter items that narrow the list: with a value, or an operator that needs none. */
export function activeFilterCount(filters: readonly FilterItem[]): number {
  return filters.filter((item) => {
    if (item.operator === 'isEmpty' || item.operator === 'isNotEmpty') return true;
    const { value } = item;
    if (Array.isArray(value)) return value.length > 0;
    return value !== undefined && value !== null && value !== '';
  }).length;
}

/** Column visibility as the grid takes it and the list state keeps it (`false` hides). */
export type ColumnVisibility = Readonly<Record<string, boolean>>;

/** The field of `actionsColumn`, for a grid's list of essential columns. */
export const ACTIONS_FIELD = '__actions';
