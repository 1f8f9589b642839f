import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLatestSearchParams, useLocation, useSearchParams } from './router';
import { PAGE_SIZE_OPTIONS } from '@cfs/contracts/constants';
import type { SortItem } from './list-query';
import {
  applyListChange,
  BASE_LIST_STATE,
  isHistoryStep,
  parseListState,
  serializeListState,
  type FiltersChange,
  type ListChange,
  type ListState,
  type ListView,
} from './list-state';

/**
 * Screen state that lives in the address (STYLE "List state lives in the URL"): the list state
 * of a grid, the open drawer item and a tab. Every setter keeps the other query parameters.
 */

export interface UseListStateOptions {
  /** Query parameter holding the JSON text; `search` as the work units spec names it. */
  key?: string;
  /** The screen's defaults (sort, filters, page size…), merged over page 0 / size 10. */
  defaults?: Partial<ListState>;
  /** `memory` for a grid inside a drawer: its state must not take over the page's address. */
  storage?: 'url' | 'memory';
  pageSizeOptions?: readonly number[];
}

export interface ListStateApi {
  state: ListState;
  defaults: ListState;
  pageSizeOptions: readonly number[];
  change: (change: ListChange) => void;
  setPage: (page: number) => void;
  setPageSize: (pageSize: number) => void;
  setSort: (sort: readonly SortItem[]) => void;
  /**
   * The filters, or a function of the current ones for a change that depends on them:
   * `list.setFilters((current) => current.filter((item) => item.field !== 'stateId'))`.
   */
  setFilters: (filters: FiltersChange) => void;
  setSearch: (search: string, exactMatch: boolean) => void;
  setColumns: (columns: Readonly<Record<string, boolean>>) => void;
  /** Shows a saved view: its filters, sort and columns, from the first page. */
  applyView: (view: ListView) => void;
  reset: () => void;
}

/**
 * The list state of one grid, held in `?{key}=<json>` (or in memory). A sort, filter or search
 * change is a new history entry, so the browser's Back undoes it; paging, the page size and the
 * shown columns replace the entry, so paging through a list does not fill the history
 * (`isHistoryStep`).
 *
 * @example
 *   const list = useListState({ defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
 *   <ResourceGrid list={list} … />
 *   // a drawer's grid:
 *   const activities = useListState({ storage: 'memory', defaults: { pageSize: 100 } });
 */
export function useListState(options: UseListStateOptions = {}): ListStateApi {
  const key = options.key ?? 'search';
  const storage = options.storage ?? 'url';
  // Callers pass literals; key the memo on their content so identities stay stable.
  const sizesKey = (options.pageSizeOptions ?? PAGE_SIZE_OPTIONS).join(',');
  const pageSizeOptions = useMemo(() => sizesKey.split(',').map(Number), [sizesKey]);
  const defaultsKey = JSON.stringify(options.defaults ?? {});
  const defaults = useMemo(
    () => parseListState(defaultsKey, BASE_LIST_STATE, pageSizeOptions),
    [defaultsKey, pageSizeOptions],
  );

  const [searchParams, setSearchParams] = useSearchParams();
  const latestSearchParams = useLatestSearchParams();
  const [memoryState, setMemoryState] = useState<ListState>(defaults);
  const urlText = searchParams.get(key);
  const urlState = useMemo(
    () => parseListState(urlText, defaults, pageSizeOptions),
    [urlText, defaults, pageSizeOptions],
  );
  const state = storage === 'url' ? urlState : memoryState;

  // The grid fires two changes in one go (a sort, then page 0): they make one history entry, the
  // first adding it and the second rewriting it, until the address's new state is rendered.
  const pushed = useRef(false);
  useEffect(() => {
    pushed.current = false;
  }, [urlText]);

  const change = useCallback(
    (next: ListChange) => {
      if (storage === 'memory') {
        setMemoryState((previous) => applyListChange(previous, next, defaults));
        return;
      }
      const params = latestSearchParams();
      const baseText = params.get(key);
      const current = parseListState(baseText, defaults, pageSizeOptions);
      const text = serializeListState(applyListChange(current, next, defaults), defaults);
      // Nothing changed: the address stays as it is.
      if (text === baseText) return;
      const push = isHistoryStep(next) && !pushed.current;
      if (text === null) params.delete(key);
      else params.set(key, text);
      setSearchParams(params, { replace: !push });
      if (push) pushed.current = true;
    },
    [storage, latestSearchParams, setSearchParams, key, defaults, pageSizeOptions],
  );

  return useMemo(
    () => ({
      state,
      defaults,
      pageSizeOptions,
      change,
      setPage: (page) => change({ type: 'page', page }),
      setPageSize: (pageSize) => change({ type: 'pageSize', pageSize }),
      setSort: (sort) => change({ type: 'sort', sort }),
      setFilters: (filters) => change({ type: 'filters', filters }),
      setSearch: (search, exactMatch) => change({ type: 'search', search, exactMatch }),
      setColumns: (columns) => change({ type: 'columns', columns }),
      applyView: (view) => change({ type: 'view', view }),
      reset: () => change({ type: 'reset' }),
    }),
    [state, defaults, pageSizeOptions, change],
  );
}

export interface DrawerParam {
  /** The item named in the address, or null when the drawer is closed. */
  openId: string | null;
  /**
   * Opens an item. `replace` swaps the address without a new history entry: after a create,
   * `open(saved.id, { replace: true })` turns `?tenantId=new` into the saved item, so a second
   * Save updates it instead of creating another. From inside the open drawer another item
   * replaces what it shows: go through its guard, `guard.confirmThen(() => drawer.open(id))`
   * (`useUnsavedChangesGuard`); a new entry is otherwise blocked as leaving the drawer.
   */
  open: (id: string | number, options?: { replace?: boolean }) => void;
  /** Closes without asking: hand it to `SideDrawer`'s `onClose`, which asks first when needed. */
  close: () => void;
  /** The address of this page with the item open, for a link that opens it in a new tab (`CellLink`). */
  href: (id: string | number) => string;
}

/**
 * The drawer that shows one item, addressed by a query parameter (spec: `?workUnitId=`,
 * `?publicWuCommId=`, `?blockId=&tab=`). Opening and closing keep the other parameters (the
 * grid's `search`); `clear` names parameters that belong to the drawer and go with it.
 *
 * @example
 *   const drawer = useDrawerParam('blockId', { clear: ['tab'] });
 *   <SideDrawer open={drawer.openId !== null} onClose={drawer.close} …>
 */
export function useDrawerParam(name: string, options: { clear?: readonly string[] } = {}): DrawerParam {
  const [searchParams, setSearchParams] = useSearchParams();
  const clearKey = (options.clear ?? []).join(',');
  const openId = searchParams.get(name);

  const open = useCallback(
    (id: string | number, openOptions: { replace?: boolean } = {}) =>
      setSearchParams(
        (previous) => {
          const params = new URLSearchParams(previous);
          params.set(name, String(id));
          return params;
        },
        { replace: openOptions.replace ?? false },
      ),
    [name, setSearchParams],
  );

  const close = useCallback(
    () =>
      setSearchParams((previous) => {
        const params = new URLSearchParams(previous);
        params.delete(name);
        for (const other of clearKey ? clearKey.split(',') : []) params.delete(other);
        return params;
      }),
    [name, clearKey, setSearchParams],
  );

  const { pathname } = useLocation();
  const href = useCallback(
    (id: string | number) => {
      const params = new URLSearchParams(searchParams);
      params.set(name, String(id));
      // The open drawer's own parameters (its tab) belong to the item open now, not to the linked one.
      for (const other of clearKey ? clearKey.split(',') : []) params.delete(other);
      return `${pathname}?${params.toString()}`;
    },
    [name, clearKey, pathname, searchParams],
  );

  return useMemo(() => ({ openId: openId === '' ? null : openId, open, close, href }), [openId, open, close, href]);
}

/**
 * One plain query parameter, e.g. the drawer's active tab: `const [tab, setTab] = useQueryParam('tab')`.
 * Setting null removes it; writes replace the history entry.
 */
export function useQueryParam(name: string): [string | null, (value: string | null) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const set = useCallback(
    (value: string | null) =>
      setSearchParams(
        (previous) => {
          const params = new URLSearchParams(previous);
          if (value === null || value === '') params.delete(name);
          else params.set(name, value);
          return params;
        },
        { replace: true },
      ),
    [name, setSearchParams],
  );
  return [searchParams.get(name), set];
}
