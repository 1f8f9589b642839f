import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LiveTopic } from '@cfs/contracts/live';
import useMediaQuery from '@mui/material/useMediaQuery';
import Box from '@mui/material/Box';
import type { Theme } from '@mui/material/styles';
import {
  DataGrid,
  type DataGridProps,
  type GridColDef,
  type GridRowId,
  type GridRowSelectionModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import type { SearchField } from '@cfs/contracts/values/odata';
import { apiDownload, isReportedByClient } from '../lib/api-client';
import { fetchList, listQueryKey } from '../lib/list-api';
import { useLiveQueries } from '../lib/live';
import {
  andFilters,
  buildFilter,
  tenantScopeFilter,
  toExportParams,
  toODataParams,
  type FieldSpec,
  type ListParams,
  type ListResource,
} from '../lib/list-query';
import { useToast } from '../lib/toast';
import type { ListStateApi } from '../lib/url-state';
import {
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
import { fitColumns, GRID_FONT_FAMILY, headerWidth, measureText, narrowColumns } from './grid-fit';
import {
  GridOverlayContext,
  ResourceGridNoRowsOverlay,
  type GridFailure,
  type GridOverlayState,
} from './grid-error-overlay';
import { displayedRows, gridRowCount, NO_PAGE_TOKENS, pageRequest, rememberNextPage } from './grid-paging';
import {
  ResourceGridToolbar,
  ResourceGridToolbarContext,
  type ResourceGridToolbarConfig,
  type ToolbarMenu,
  type ToolbarMenuItem,
} from './resource-grid-toolbar';
import { selectedIds, toSelectionModel, type RowSelection } from './row-selection';

/** Props the grid controls itself; everything else of the Data Grid passes through `gridProps`. */
type ControlledGridProps =
  | 'rows'
  | 'columns'
  | 'getRowId'
  | 'rowCount'
  | 'loading'
  | 'paginationMode'
  | 'sortingMode'
  | 'filterMode'
  | 'paginationModel'
  | 'onPaginationModelChange'
  | 'sortModel'
  | 'onSortModelChange'
  | 'filterModel'
  | 'onFilterModelChange'
  | 'columnVisibilityModel'
  | 'onColumnVisibilityModelChange'
  | 'pageSizeOptions'
  | 'onRowClick'
  | 'showToolbar'
  | 'slots'
  | 'checkboxSelection'
  | 'rowSelectionModel'
  | 'onRowSelectionModelChange';

export interface ResourceGridProps<R extends GridValidRowModel> {
  /** The list state, from `useListState` (address or memory). */
  list: ListStateApi;
  /** The list endpoint, e.g. `/v1/locations`; exports go to `{path}/Export()`. */
  path: string;
  /** Explicit per area. `type` tells the query how to compare; a GUID column uses `guidFilterOperators`. */
  columns: readonly GridColDef<R>[];
  /**
   * The fields shown on a screen under 768 px, which fit it without scrolling sideways (work
   * units: ID, Title, Severity, State); the column panel, where offered, shows the others.
   */
  essentialColumns: readonly string[];
  getRowId: (row: R) => GridRowId;
  /** `$expand`, e.g. `tenant`. */
  expand?: string;
  /** Server paths (and kinds) where a column's field is not the server's, e.g. `{ tenant: { path: 'tenant/name' } }`. */
  fields?: Readonly<Record<string, FieldSpec>>;
  /** Always AND-ed: `isEnabled eq true`, a protocol… */
  fixedFilter?: string;
  /**
   * The tenant in the path, for a list of tenant-owned rows: only its rows are listed until the
   * user chooses "All tenants" in the toolbar (offered to users with several tenants; the choice
   * is kept in the list state). `tenantScope={useTenantId()}`.
   */
  tenantScope?: string;
  /** Shows the search box, searching these fields. */
  searchFields?: readonly SearchField[];
  /** Offers the "Exact Match" checkbox. */
  exactMatch?: boolean;
  /** Applies the search while typing (250 ms debounce). */
  liveSearch?: boolean;
  /** Shows Export Page and Export All, downloading this file name (e.g. `workunits.csv`). */
  exportFileName?: string;
  /**
   * How many rows Export All asks for: the spec's 1000 (EXPORT_ALL_ROWS) unless the area's list
   * exports every row (null: no $top, the server streams them all; work units, spec 001 §2).
   */
  exportAllRows?: number | null;
  /** POST: the spec calls this list's export with POST (`POST /v1/compliancereport/Export()`), the options in the body. */
  exportMethod?: 'GET' | 'POST';
  onCreate?: () => void;
  /**
   * The area's words for its empty list (nothing searched or filtered) instead of the Data Grid's
   * "No rows", with a button of `createLabel` doing `onCreate` when the grid has it.
   */
  emptyList?: { message: string; createLabel: string };
  menu?: ToolbarMenu;
  /** More toolbar buttons (e.g. Clone Operations). */
  toolbarActions?: ReactNode;
  /** Shows the column visibility panel button; the choice is kept in the list state. */
  columnsToggle?: boolean;
  /** Hides the grid's filter panel (an area with its own filter bar sets `list` filters itself). */
  disableColumnFilter?: boolean;
  /** A click anywhere on a row (not on its links and buttons) opens it: every grid whose rows open a drawer sets it. */
  onRowClick?: (row: R) => void;
  /** Polling interval in ms (spec: work units 60 s when no panel is open). */
  refetchInterval?: number | false;
  /** The live topic of the screen: while the tab's live stream follows it, the grid asks again on each change instead of polling. */
  live?: LiveTopic;
  /** False holds the query (e.g. until the tenant is known). */
  enabled?: boolean;
  /**
   * Checkbox selection with a bulk bar over the toolbar while rows are checked: the area's
   * actions on `selection.ids`, Export Selection (when the grid exports; the rows whose
   * `idField` is among the checked ids) and Clear Selection.
   */
  bulk?: { selection: RowSelection; idField: string; actions: readonly ToolbarMenuItem[] };
  gridProps?: Partial<Omit<DataGridProps<R>, ControlledGridProps>>;
}

/**
 * A server-paged, -sorted and -filtered MUI Data Grid over one list endpoint: the plumbing every
 * area's grid shares (spec 000 §2). Columns stay explicit in the area; see components/README.md.
 *
 * @example
 *   const list = useListState({ defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
 *   <ResourceGrid list={list} path="/v1/locations" columns={columns} essentialColumns={['name', 'city']} getRowId={(row) => row.locationId}
 *     searchFields={['name', 'city', 'state']} exportFileName="locations.csv" onCreate={() => drawer.open('new')} />
 */
export function ResourceGrid<R extends GridValidRowModel>(props: ResourceGridProps<R>) {
  const { list, path, getRowId, onRowClick, refetchInterval = false, enabled = true, gridProps, bulk } = props;
  const { state } = list;

  const resource: ListResource = {
    searchFields: props.searchFields,
    fields: fieldsFromColumns(props.columns, props.fields),
    fixedFilter: andFilters(
      props.tenantScope === undefined ? undefined : tenantScopeFilter(props.tenantScope, state.allTenants),
      props.fixedFilter,
    ),
    expand: props.expand,
  };
  // With the sort cleared in the grid, the screen's default order still keeps paging stable.
  const params: ListParams = state.sort.length > 0 ? state : { ...state, sort: list.defaults.sort };
  // Next and Previous go by the tokens of the pages shown (grid-paging.ts); other pages by $skip.
  const [pageTokens, setPageTokens] = useState(NO_PAGE_TOKENS);
  const pagedQuery = JSON.stringify(toODataParams({ ...params, page: 0 }, resource));
  const request = pageRequest(pageTokens, pagedQuery, state.page, state.pageSize);
  const query = toODataParams({ ...params, page: request.page }, resource, request.skipToken);
  // The grid takes a new model object for a change of model (and goes back to page 0): hand it
  // the same objects while their content is the same.
  const sortModel = useSameWhileEqual(toGridSortModel(state.sort));
  // The grid's own filter changes stay shown until the address has them (grid-model.ts).
  const stateFilterModel = useSameWhileEqual(toGridFilterModel(state.filters));
  const [shownFilter, setShownFilter] = useState(() => startShownFilterModel(stateFilterModel));
  const reconciledFilter = stateChangedFilterModel(shownFilter, stateFilterModel);
  if (reconciledFilter !== shownFilter) setShownFilter(reconciledFilter);
  const filterModel = reconciledFilter.model;
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [frame, width] = useElementWidth();
  // On a phone the essential columns, as many as the grid's width holds; on a wider screen the
  // columns fit the grid's width (grid-fit.ts), once it is known.
  const checkboxes = bulk !== undefined && !narrow;
  const fitted = narrow
    ? narrowColumns({
        columns: props.columns,
        essential: props.essentialColumns,
        chosen: state.columns,
        available: width === 0 ? 0 : width - GRID_BORDERS,
        // The header buttons the grid shows: the sort and the filter of its models (one item each).
        headerWidth: (column) =>
          narrowHeaderWidth(column, sortModel, props.disableColumnFilter ? [] : filterModel.items),
        // The column the grid shows sorted keeps its place.
        keep: sortModel.map((item) => item.field),
      })
    : width === 0
      ? undefined
      : fitColumns({
          columns: props.columns,
          available: width - GRID_BORDERS - (checkboxes ? CHECKBOX_COLUMN_WIDTH : 0),
          hideable: props.columnsToggle ?? false,
          essential: props.essentialColumns,
          chosen: state.columns,
          measure: measureText,
          font: HEADER_FONT,
        });
  const columns = fitted?.columns ?? props.columns;
  const columnVisibilityModel = useSameWhileEqual({ ...fitted?.hidden, ...state.columns });
  const selectionIds = bulk?.selection.ids;
  const rowSelectionModel = useMemo(() => toSelectionModel(selectionIds ?? []), [selectionIds]);

  const live = useLiveQueries(props.live, [listQueryKey(path)]);
  const result = useQuery({
    queryKey: listQueryKey(path, query),
    queryFn: ({ signal }) => fetchList<R>(path, query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: live ? false : refetchInterval,
    enabled,
  });
  useErrorToast(result.error, result.errorUpdatedAt);
  // A failed list call is no empty list: no rows of another query, no pager that offers pages it
  // does not know, but the failure itself in the grid (and the toast above).
  const { refetch } = result;
  const failure = useMemo<GridFailure | null>(
    () =>
      result.isError
        ? { message: isReportedByClient(result.error) ? '' : result.error.message, retry: () => void refetch() }
        : null,
    [result.isError, result.error, refetch],
  );
  // A search or filters that leave the list empty can be cleared from the empty grid (one Back undoes it).
  const narrowed = state.search !== '' || state.filters.length > 0;
  const { applyView } = list;
  const { sort, columns: chosenColumns, exactMatch } = state;
  const narrowing = useMemo(
    () =>
      narrowed
        ? { clear: () => applyView({ filters: [], search: '', exactMatch, sort, columns: chosenColumns }) }
        : null,
    [narrowed, applyView, exactMatch, sort, chosenColumns],
  );
  const { emptyList, onCreate } = props;
  const overlay = useMemo<GridOverlayState>(
    () => ({
      failure,
      narrowing,
      empty: emptyList
        ? {
            message: emptyList.message,
            ...(onCreate ? { create: { label: emptyList.createLabel, onClick: onCreate } } : {}),
          }
        : null,
    }),
    [failure, narrowing, emptyList, onCreate],
  );
  // The answer links the page after it: kept while rendering, as soon as it is in.
  if (result.data && !result.isPlaceholderData) {
    const held = rememberNextPage(pageTokens, pagedQuery, request.page, result.data.nextPageToken);
    if (held !== pageTokens) setPageTokens(held);
  }
  // A page past the $skip cap that no token reaches (a reload deep in a long list) starts over.
  const { setPage } = list;
  useEffect(() => {
    if (request.page !== state.page) setPage(request.page);
  }, [request.page, state.page, setPage]);

  const toast = useToast();
  const exportFailed = () => toast.error(SHELL_MESSAGES.exportFailed);
  const toolbar: ResourceGridToolbarConfig = {
    list,
    onCreate: props.onCreate,
    menu: props.menu,
    extra: props.toolbarActions,
    runExport: props.exportFileName
      ? (scope, onProgress) =>
          runExport(
            `${path}/Export()`,
            {
              ...toExportParams(
                { ...params, page: request.page },
                resource,
                scope,
                props.exportAllRows,
                request.skipToken,
              ),
              columns: JSON.stringify(exportColumns(columns, resource.fields ?? {}, columnVisibilityModel, scope)),
            },
            props.exportFileName ?? '',
            props.exportMethod,
            { onProgress, onFailed: exportFailed },
          )
      : undefined,
    columnsToggle: props.columnsToggle ?? false,
    filterPanel: !props.disableColumnFilter,
    search: props.searchFields
      ? { offerExactMatch: props.exactMatch ?? false, live: props.liveSearch ?? false }
      : undefined,
    bulk: bulk && {
      selection: bulk.selection,
      actions: bulk.actions,
      // The checked rows in the grid's order, whatever page, filter or search shows now.
      runExport: props.exportFileName
        ? () => {
            const chosen: ListParams = {
              ...params,
              page: 0,
              search: '',
              filters: [{ field: bulk.idField, operator: 'isAnyOf', value: [...bulk.selection.ids] }],
            };
            // The visible columns, as Export Page writes them.
            const shown = JSON.stringify(exportColumns(columns, resource.fields ?? {}, columnVisibilityModel, 'page'));
            return runExport(
              `${path}/Export()`,
              { ...toExportParams(chosen, { ...resource, fixedFilter: undefined }, 'all'), columns: shown },
              props.exportFileName ?? '',
              props.exportMethod,
              {
                onFailed: exportFailed,
              },
            );
          }
        : undefined,
    },
    tenantScope: props.tenantScope,
  };

  return (
    <ResourceGridToolbarContext.Provider value={toolbar}>
      <GridOverlayContext.Provider value={overlay}>
        <Box ref={frame}>
          <DataGrid<R>
            disableRowSelectionOnClick
            autoHeight
            {...gridProps}
            // On a narrow screen the essential columns need the width more than bulk selection does.
            {...(bulk && checkboxes
              ? {
                  checkboxSelection: true,
                  keepNonExistentRowsSelected: true,
                  rowSelectionModel,
                  onRowSelectionModelChange: (model: GridRowSelectionModel) =>
                    bulk.selection.set(selectedIds(model, (result.data?.rows ?? []).map(getRowId), bulk.selection.ids)),
                }
              : {})}
            rows={failure ? [] : (result.data?.rows ?? [])}
            columns={columns}
            // On a narrow screen a row is as tall as its cells' wrapped text: a phone reads the whole title.
            getRowHeight={narrow ? wrappedRowHeight : undefined}
            getRowId={getRowId}
            // Unknown (-1) until the first answer: a count of 0 would make the grid clamp a linked page to 0.
            // Unknown too past the server's count cap, until the last page: "1–10 of more than 10,000".
            rowCount={failure ? 0 : gridRowCount(result.data, request.page, state.pageSize)}
            hideFooter={failure !== null || gridProps?.hideFooter}
            localeText={{
              ...gridProps?.localeText,
              paginationDisplayedRows: (shown) =>
                displayedRows(shown, result.data?.totalIsLowerBound ? result.data.total : undefined),
            }}
            loading={result.isFetching && (result.isPending || result.isPlaceholderData || result.isError)}
            paginationMode="server"
            sortingMode="server"
            filterMode="server"
            pageSizeOptions={list.pageSizeOptions}
            paginationModel={{ page: state.page, pageSize: state.pageSize }}
            onPaginationModelChange={(model) => {
              if (model.pageSize !== state.pageSize) list.setPageSize(model.pageSize);
              else if (model.page !== state.page) list.setPage(model.page);
            }}
            sortModel={sortModel}
            onSortModelChange={(model) => list.setSort(fromGridSortModel(model))}
            disableColumnFilter={props.disableColumnFilter}
            filterModel={props.disableColumnFilter ? undefined : filterModel}
            onFilterModelChange={(model) => {
              setShownFilter((shown) => gridChangedFilterModel(shown, model));
              const filters = fromGridFilterModel(model);
              // Choosing a column or an operator without a value yet changes nothing sent: stay on the page.
              const keepPage = buildFilter({ ...state, filters }, resource) === buildFilter(state, resource);
              list.change({ type: 'filters', filters, keepPage });
            }}
            disableColumnSelector={!props.columnsToggle}
            columnVisibilityModel={columnVisibilityModel}
            onColumnVisibilityModelChange={(model) => list.setColumns(fitted?.chosenFrom(model) ?? model)}
            onRowClick={
              onRowClick
                ? (rowParams) => {
                    // Selecting a cell's text to copy it is not a request to open the row.
                    if (window.getSelection()?.isCollapsed === false) return;
                    onRowClick(rowParams.row);
                  }
                : undefined
            }
            showToolbar
            slots={{ toolbar: ResourceGridToolbar, noRowsOverlay: ResourceGridNoRowsOverlay }}
            sx={[
              keepPageSizeSelector,
              onRowClick ? { '& .MuiDataGrid-row': { cursor: 'pointer' } } : {},
              narrow ? narrowGrid : {},
              ...(Array.isArray(gridProps?.sx) ? gridProps.sx : [gridProps?.sx]),
            ]}
          />
        </Box>
      </GridOverlayContext.Provider>
    </ResourceGridToolbarContext.Provider>
  );
}

/**
 * The Data Grid hides the pager's rows-per-page label and selector under `sm`; the page sizes
 * (spec 000 §9) are as useful on a phone, so they stay.
 */
const keepPageSizeSelector = (theme: Theme) => ({
  // A long title wraps between its words (fitted columns are as wide as the longest word needs).
  '& .MuiDataGrid-columnHeaderTitle': { whiteSpace: 'normal', lineHeight: 1.2, overflowWrap: 'normal' },
  // The last column may end at the grid's edge (fitted or narrow columns): its resize handle, and
  // its menu button while hidden, would stick out past it and scroll the grid sideways.
  '& .MuiDataGrid-columnHeader--last .MuiDataGrid-columnSeparator': { display: 'none' },
  '& .MuiDataGrid-columnHeader--last': { overflow: 'hidden' },
  '& .MuiDataGrid-footerContainer .MuiTablePagination-selectLabel': { display: 'block' },
  '& .MuiDataGrid-footerContainer .MuiTablePagination-input': { display: 'inline-flex' },
  // Closer together, so that the size, the range and the arrows fit a phone's width.
  [theme.breakpoints.down('sm')]: {
    '& .MuiDataGrid-footerContainer .MuiTablePagination-input': { marginLeft: 0.5, marginRight: 1 },
    '& .MuiDataGrid-footerContainer .MuiTablePagination-actions': { marginLeft: 0.5 },
  },
});

/** A row as tall as its content (the grid measures it), for cells whose text wraps. */
const wrappedRowHeight = () => 'auto' as const;
/** Cells whose text wraps between words (and inside a word longer than the column) instead of ending in "…". */
const narrowGrid = {
  '& .MuiDataGrid-cell': { whiteSpace: 'normal', overflowWrap: 'anywhere', lineHeight: 1.4, py: 1 },
  '& .MuiDataGrid-cell > *': { whiteSpace: 'normal' },
  // No hover on a touch screen: a header shows its sort button once sorted (a tap on it sorts).
  '& .MuiDataGrid-columnHeader:not(.MuiDataGrid-columnHeader--sorted) .MuiDataGrid-sortButton': { display: 'none' },
};

/** The Data Grid's border (1 px a side, and a pixel the grid's rounding of flex widths may add) and its checkbox column. */
const GRID_BORDERS = 3;
const CHECKBOX_COLUMN_WIDTH = 50;
/** The header titles' font (MUI's Data Grid: body2, medium). */
const HEADER_FONT = `500 14px ${GRID_FONT_FAMILY}`;

/**
 * A narrow grid's header: the longest word of its title, the padding, and the buttons it shows.
 * A touch screen has no hover, so a narrow grid shows a header's buttons only where the grid shows
 * its column sorted or filtered (`narrowGrid`), and keeps no room for the others.
 */
function narrowHeaderWidth<R extends GridValidRowModel>(
  column: GridColDef<R>,
  sorted: readonly { field: string }[],
  filtered: readonly { field: string }[],
): number {
  const buttons = [sorted, filtered].filter((items) => items.some((item) => item.field === column.field)).length;
  return headerWidth(column, measureText, HEADER_FONT, buttons);
}

/** The element's width, renewed as it changes (0 until measured). */
function useElementWidth(): [(element: HTMLElement | null) => void, number] {
  const [width, setWidth] = useState(0);
  const observer = useRef<ResizeObserver | null>(null);
  const attach = useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element) return;
    observer.current = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.current.observe(element);
  }, []);
  return [attach, width];
}

function useSameWhileEqual<T>(value: T): T {
  const key = JSON.stringify(value);
  const [held, setHeld] = useState({ key, value });
  if (held.key !== key) {
    setHeld({ key, value });
    return value;
  }
  return held.value;
}

/**
 * Runs one CSV export. A failed one is logged (spec 001 §8, 002 §7) and, beyond the spec, told:
 * operators waiting on a long export saw nothing when it failed.
 */
async function runExport(
  path: string,
  query: ReturnType<typeof toExportParams> & { columns: string },
  fileName: string,
  method: 'GET' | 'POST' = 'GET',
  options: { onProgress?: (bytes: number) => void; onFailed: () => void },
): Promise<void> {
  try {
    await (method === 'POST'
      ? apiDownload(path, {}, fileName, 'POST', query, options.onProgress)
      : apiDownload(path, query, fileName, 'GET', undefined, options.onProgress));
  } catch (error) {
    console.error(`CSV export of ${path} failed`, error);
    // 401 and 403 are answered by the API client (sign-in, the access toast).
    if (!isReportedByClient(error)) options.onFailed();
  }
}

/** One error toast per failed load, with the server's message; 401 and 403 are already handled by the API client. */
function useErrorToast(error: Error | null, errorUpdatedAt: number): void {
  const toast = useToast();
  useEffect(() => {
    if (!error || isReportedByClient(error)) return;
    toast.error(error.message);
  }, [error, errorUpdatedAt, toast]);
}
