import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@cfs/contracts/constants';
import type { FilterItem, ListParams, SortItem } from './list-query';

/**
 * The state of one list screen as held in the address (STYLE "List state lives in the URL"):
 * the list contract's params plus which columns are hidden. Kept as one JSON text in one query
 * parameter (spec 001 §2, work units: `search` is "a JSON text holding page size, page number,
 * sort and filters"), so a link reproduces the screen. These functions are pure; the hook that
 * binds them to the router is `useListState` in `url-state.ts`.
 */
export interface ListState extends ListParams {
  /** Column visibility: `{ field: false }` hides a column; fields not named are visible. */
  columns: Readonly<Record<string, boolean>>;
  /**
   * A list of tenant-owned rows shows the tenant in the path unless the user chose "All tenants"
   * (`ResourceGrid`'s `tenantScope`). Kept with the rest of the list, so the choice and the page
   * it resets change in one write of the address.
   */
  allTenants: boolean;
}

/**
 * New filters, or a function from the current filters to the new ones. A change that depends on
 * the filters (remove one chip, add a value to another) is a function: it is applied to the
 * filters as the changes before it left them, even when several come before the next render.
 */
export type FiltersChange = readonly FilterItem[] | ((current: readonly FilterItem[]) => readonly FilterItem[]);

/**
 * The change that puts `item` in place of the filters on `field` (`undefined` removes them), for a
 * control beside the grid that sets one field's filter (Show Disabled Rules, a version, a report's
 * choices): `list.setFilters(replaceFilter('enabled', show ? undefined : ENABLED_ONLY))`.
 */
export function replaceFilter(
  field: string,
  item: FilterItem | undefined,
): (current: readonly FilterItem[]) => FilterItem[] {
  return (current) => [...current.filter((existing) => existing.field !== field), ...(item ? [item] : [])];
}

export type ListChange =
  | { type: 'page'; page: number }
  | { type: 'pageSize'; pageSize: number }
  | { type: 'sort'; sort: readonly SortItem[] }
  /** `keepPage`: the change does not alter the query (an item still without a value). */
  | { type: 'filters'; filters: FiltersChange; keepPage?: boolean }
  | { type: 'search'; search: string; exactMatch: boolean }
  | { type: 'columns'; columns: Readonly<Record<string, boolean>> }
  /** A saved view: its filters, sort, columns and search replace the list's, from the first page. */
  | { type: 'view'; view: ListView }
  | { type: 'allTenants'; allTenants: boolean }
  | { type: 'reset' };

/**
 * What a saved view holds of a list (contracts' `SavedViewState`): everything but the page, its
 * size and the tenant choice. A view without a search (a built-in view, one saved before views
 * kept it) leaves the list's search as it is.
 */
export type ListView = Pick<ListState, 'filters' | 'sort' | 'columns'> &
  Partial<Pick<ListState, 'search' | 'exactMatch'>>;

export function viewOf(state: ListState): Required<ListView> {
  return {
    filters: state.filters,
    sort: state.sort,
    columns: state.columns,
    search: state.search,
    exactMatch: state.exactMatch,
  };
}

/** Text with object keys in one order, so views compare by content (the database reorders keys). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The list with the view's parts in place of its own (a view without a search keeps the list's). */
function withView(state: ListState, view: ListView): ListState {
  const search = view.search ?? state.search;
  const exactMatch = view.search === undefined ? state.exactMatch : (view.exactMatch ?? false);
  return { ...state, filters: view.filters, sort: view.sort, columns: view.columns, search, exactMatch };
}

/** Whether the list shows the view: same filters, sort, column visibility and (when the view has one) search. */
export function showsView(state: ListState, view: ListView): boolean {
  return canonical(viewOf(state)) === canonical(viewOf(withView(state, view)));
}

export const BASE_LIST_STATE: ListState = {
  page: 0,
  pageSize: DEFAULT_PAGE_SIZE,
  sort: [],
  filters: [],
  search: '',
  exactMatch: false,
  columns: {},
  allTenants: false,
};

/*
 * The parts of a stored state, each read on its own: a malformed part is read as absent and falls
 * back to its default. Plain checks, not a schema library: this runs before the first screen paints.
 */
type Reader<T> = (value: unknown) => T | undefined;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const wholeNumber =
  (min: number, max = Number.MAX_SAFE_INTEGER): Reader<number> =>
  (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
const ofType =
  <T extends string | boolean>(type: 'string' | 'boolean'): Reader<T> =>
  (value) =>
    typeof value === type ? (value as T) : undefined;
/** A list whose every item reads, or nothing. */
const listOf =
  <T>(read: Reader<T>): Reader<T[]> =>
  (value) => {
    if (!Array.isArray(value)) return undefined;
    const items: T[] = [];
    for (const item of value) {
      const itemRead = read(item);
      if (itemRead === undefined) return undefined;
      items.push(itemRead);
    }
    return items;
  };

const readSortItem: Reader<SortItem> = (value) =>
  isRecord(value) && nonEmptyText(value.field) && (value.direction === 'asc' || value.direction === 'desc')
    ? { field: value.field, direction: value.direction }
    : undefined;

const readFilterItem: Reader<FilterItem> = (value) => {
  if (!isRecord(value) || !nonEmptyText(value.field) || !nonEmptyText(value.operator)) return undefined;
  const { id } = value;
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') return undefined;
  // Keep the grid's shape: an item without a value has no `value` key at all.
  const item: FilterItem = { field: value.field, operator: value.operator };
  if (id !== undefined) item.id = id;
  if (value.value !== undefined) item.value = value.value;
  return item;
};

const readColumns: Reader<Record<string, boolean>> = (value) =>
  isRecord(value) && Object.values(value).every((shown) => typeof shown === 'boolean')
    ? (value as Record<string, boolean>)
    : undefined;

/**
 * Reads the JSON text from the address. Anything missing, malformed or out of range falls back
 * to the default for that part alone, so an old or hand-edited link still opens the screen.
 */
export function parseListState(
  text: string | null | undefined,
  defaults: ListState,
  pageSizeOptions: readonly number[] = PAGE_SIZE_OPTIONS,
): ListState {
  if (!text) return defaults;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return defaults;
  }
  if (!isRecord(raw)) return defaults;
  const pageSize = wholeNumber(1, MAX_PAGE_SIZE)(raw.pageSize);
  return {
    page: wholeNumber(0)(raw.page) ?? defaults.page,
    pageSize:
      pageSize !== undefined && (pageSizeOptions.includes(pageSize) || pageSize === defaults.pageSize)
        ? pageSize
        : defaults.pageSize,
    sort: listOf(readSortItem)(raw.sort) ?? defaults.sort,
    filters: listOf(readFilterItem)(raw.filters) ?? defaults.filters,
    search: ofType<string>('string')(raw.search) ?? defaults.search,
    exactMatch: ofType<boolean>('boolean')(raw.exactMatch) ?? defaults.exactMatch,
    columns: readColumns(raw.columns) ?? defaults.columns,
    allTenants: ofType<boolean>('boolean')(raw.allTenants) ?? defaults.allTenants,
  };
}

/** The JSON text for the address, or null when the state is the defaults (a clean address). */
export function serializeListState(state: ListState, defaults: ListState): string | null {
  if (sameState(state, defaults)) return null;
  return JSON.stringify(state);
}

export function sameState(a: ListState, b: ListState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * One change to the list. Whatever changes which rows are listed — sort, filters, search, page
 * size, the tenant scope — goes back to the first page (spec 000 §2 "Search … resets to page 0"; spec 002 §4
 * "query changes (sort, filter) reset the page to 0").
 */
export function applyListChange(state: ListState, change: ListChange, defaults: ListState): ListState {
  switch (change.type) {
    case 'page':
      return { ...state, page: Math.max(0, Math.trunc(change.page)) };
    case 'pageSize':
      return { ...state, pageSize: change.pageSize, page: 0 };
    case 'sort':
      return { ...state, sort: change.sort, page: 0 };
    case 'filters':
      return {
        ...state,
        filters: typeof change.filters === 'function' ? change.filters(state.filters) : change.filters,
        page: change.keepPage ? state.page : 0,
      };
    case 'search':
      return { ...state, search: change.search, exactMatch: change.exactMatch, page: 0 };
    case 'columns':
      return { ...state, columns: change.columns };
    case 'view':
      return { ...state, ...viewOf(withView(state, change.view)), page: 0 };
    case 'allTenants':
      return { ...state, allTenants: change.allTenants, page: 0 };
    case 'reset':
      return defaults;
  }
}

/**
 * Whether a change gets its own entry in the browser history, so that Back undoes it: a new
 * sort, filter or search changes which rows the user is looking at. Paging, the page size, the
 * shown columns and a filter item still without a value replace the entry, so paging through a
 * list does not fill the history.
 */
export function isHistoryStep(change: ListChange): boolean {
  switch (change.type) {
    case 'sort':
    case 'search':
    case 'reset':
    case 'view':
    case 'allTenants':
      return true;
    case 'filters':
      return !change.keepPage;
    case 'page':
    case 'pageSize':
    case 'columns':
      return false;
  }
}
