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

/** Fixed column widths on a narrow screen, as a share of the width the area gives them. */
const NARROW_WIDTH_SHARE = 0.75;

/** The least width a flexible column (a name, a title) keeps on a narrow screen, or its own minimum if less. */
const NARROW_FLEX_MIN = 100;
/** The least a flexible column gives up its reading width to, for columns that never give way. */
const NARROW_FLEX_FLOOR = 64;

/** What a narrow grid knows of its room: its inner width (0 while unknown) and each column's least width (its header's). */
export interface NarrowRoom<R extends GridValidRowModel> {
  available: number;
  least: (column: GridColDef<R>) => number;
}

/**
 * Under 768 px (spec 000 §9 `sm`) a grid shows its essential columns, so that they fit the screen
 * without scrolling sideways: the other columns start hidden (the user's own choices, kept in
 * the list state, still win), fixed widths shrink (never below their header's width) and flexible
 * columns keep a reading width (`NARROW_FLEX_MIN`, or their header's if more). When even the essential columns need more than
 * the grid's width, the fixed ones shrink to their least width, then give way in the reverse of
 * the order they are listed in (never the first one, the first flexible one — the name or title — or the row actions): a phone reads a device's whole name and its CPU rather than six
 * columns of a few letters each. Headers drop their column menu, whose button a touch screen
 * always shows and which would not fit beside the title; sorting stays on the header, the column
 * panel in the toolbar.
 *
 * @example
 *   const narrow = narrowColumns(columns, ['workUnitId', 'title', 'severityId', 'stateId'], list.state.columns, { available: 340, least });
 *   <DataGrid columns={narrow.columns} columnVisibilityModel={narrow.visibility}
 *     onColumnVisibilityModelChange={(model) => list.setColumns(narrow.chosenFrom(model))} />
 */
export function narrowColumns<R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  essential: readonly string[],
  chosen: ColumnVisibility,
  room?: NarrowRoom<R>,
) {
  const hidden: Record<string, boolean> = Object.fromEntries(
    columns.filter((column) => !essential.includes(column.field)).map((column) => [column.field, false]),
  );
  // Each fixed column's least width: what its content declares (`minWidth`) or its header needs.
  const least = (column: GridColDef<R>) => Math.max(column.minWidth ?? 0, room?.least(column) ?? 0);
  let sized = columns.map((column): GridColDef<R> => {
    // Row actions keep their width: their icons do not shrink.
    if (column.field === ACTIONS_FIELD) return column;
    if (column.flex !== undefined)
      return {
        ...column,
        minWidth: room
          ? Math.max(room.least(column), Math.min(column.minWidth ?? NARROW_FLEX_MIN, NARROW_FLEX_MIN))
          : undefined,
        disableColumnMenu: true,
      };
    const shrunk = Math.round((column.width ?? 100) * NARROW_WIDTH_SHARE);
    return {
      ...column,
      width: Math.max(shrunk, least(column)),
      ...(room ? { minWidth: least(column) } : {}),
      disableColumnMenu: true,
    };
  });
  if (room && room.available > 0) {
    const shown = () => sized.filter((column) => (chosen[column.field] ?? hidden[column.field] ?? true) !== false);
    const fixed = (column: GridColDef<R>) => column.flex === undefined && column.field !== ACTIONS_FIELD;
    const total = (width: (column: GridColDef<R>) => number) => shown().reduce((sum, column) => sum + width(column), 0);
    const preferred = (column: GridColDef<R>) =>
      column.flex === undefined ? (column.width ?? 100) : (column.minWidth ?? 0);
    const leastOf = (column: GridColDef<R>) => (fixed(column) ? (column.minWidth ?? 0) : preferred(column));
    // The name or title a row is read by: the first flexible essential column.
    const firstFlexible = essential.find(
      (field) => columns.find((column) => column.field === field)?.flex !== undefined,
    );
    // Columns give way only when the others, each down to its least width, still need more room.
    for (const field of [...essential].reverse()) {
      if (total(leastOf) <= room.available) break;
      if (field === ACTIONS_FIELD || field === essential[0] || field === firstFlexible || chosen[field] !== undefined)
        continue;
      hidden[field] = false;
    }
    // Where the columns that never give way still need more, the names and titles give up some of
    // their reading width, down to `NARROW_FLEX_FLOOR` or their header's, rather than the grid scrolling sideways.
    const flexFloor = (column: GridColDef<R>) => Math.max(NARROW_FLEX_FLOOR, room.least(column));
    const over = total(leastOf) - room.available;
    const flexGivable = total((column) =>
      column.flex === undefined ? 0 : Math.max(0, (column.minWidth ?? 0) - flexFloor(column)),
    );
    if (over > 0 && flexGivable > 0) {
      const share = Math.min(1, over / flexGivable);
      sized = sized.map((column) => {
        if (column.flex === undefined || (column.minWidth ?? 0) <= flexFloor(column)) return column;
        const minWidth = column.minWidth ?? 0;
        return { ...column, minWidth: Math.floor(minWidth - (minWidth - flexFloor(column)) * share) };
      });
    }
    // The rest of the shortfall is taken from the fixed columns, each in proportion to what it can give.
    const shortfall = total(preferred) - room.available;
    const givable = total((column) => preferred(column) - leastOf(column));
    if (shortfall > 0 && givable > 0) {
      const share = Math.min(1, shortfall / givable);
      sized = sized.map((column) =>
        fixed(column)
          ? { ...column, width: Math.floor(preferred(column) - (preferred(column) - leastOf(column)) * share) }
          : column,
      );
    }
  }
  return {
    columns: sized,
    visibility: { ...hidden, ...chosen } as ColumnVisibility,
    /**
     * The grid's model after a change in its column panel, as the user's choices to keep: what
     * differs from the narrow start, and earlier choices still standing; so the narrow start is
     * never kept as a choice that would hide columns on a wide screen.
     */
    chosenFrom: (model: ColumnVisibility): ColumnVisibility =>
      Object.fromEntries(
        Object.entries(model).filter(
          ([field, visible]) => visible !== (hidden[field] ?? true) || chosen[field] === visible,
        ),
      ),
  };
}
