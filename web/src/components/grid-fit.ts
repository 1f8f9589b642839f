import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { ACTIONS_FIELD, type ColumnVisibility } from './grid-model';

/** A header's padding (10 px a side) and its sort button (28 px; on a wide screen kept while hidden, and on both sides of a centred title). */
const HEADER_PADDING = 20;
const SORT_BUTTON = 28;
/** Rounding of measured text, and the grid's border. */
const SLACK = 4;
/** The width the grid gives a column that names none. */
const DEFAULT_WIDTH = 100;

/** The width of a text in a font, in CSS pixels (a canvas measures as the page renders). */
export type MeasureText = (text: string, font: string) => number;

/**
 * The least width that shows a column's header without truncating it: its longest word (titles
 * wrap between words, see `wrappingHeaders`), the padding, and the sort button's room.
 */
export function headerWidth<R extends GridValidRowModel>(
  column: GridColDef<R>,
  measure: MeasureText,
  font: string,
  /** The header's buttons shown beside its title, when not the sort button's room (a narrow grid's sorted or filtered column); a centred title keeps their room on both sides. */
  buttons?: number,
): number {
  const title = column.headerName ?? column.field;
  const longestWord = Math.max(0, ...title.split(/\s+/).map((word) => measure(word, font)));
  const sortable = column.sortable !== false;
  const centred = (column.headerAlign ?? (column.type === 'boolean' ? 'center' : undefined)) === 'center';
  const room = (buttons ?? (sortable ? 1 : 0)) * (centred ? 2 : 1);
  return Math.ceil(longestWord) + HEADER_PADDING + SORT_BUTTON * room + SLACK;
}

export interface FittedColumns<R extends GridValidRowModel> {
  columns: GridColDef<R>[];
  /** Columns hidden so that the rest fit (only where the user can show them in the column panel). */
  hidden: ColumnVisibility;
  /**
   * The grid's model after a change in its column panel, as the user's choices to keep: what
   * differs from the fitted start, and earlier choices still standing; so a column hidden for
   * want of room is not kept hidden on a wider screen.
   */
  chosenFrom: (model: ColumnVisibility) => ColumnVisibility;
}

/**
 * Columns fitted to the grid's width on a wide screen, so that it does not scroll sideways:
 *
 * - every column is at least as wide as its header needs (no "E…" for Enabled);
 * - when the columns' widths add up to more than there is, a column the user can show again in
 *   the column panel (`hideable`) and did not choose is hidden, from the last one back (the
 *   essential ones stay), until the rest fit at their own widths;
 * - what still does not fit is taken from the fixed-width columns, each down to its
 *   `minWidth` (what its content needs, e.g. `dateTimeColumn`) or its header's width.
 *
 * Row actions keep their width. Flex columns take what is left, in proportion to their flex.
 *
 * @example
 *   const fitted = fitColumns({ columns, available: 1130, hideable: true, essential: ['title'], chosen: list.state.columns, measure, font });
 *   <DataGrid columns={fitted.columns} columnVisibilityModel={{ ...fitted.hidden, ...list.state.columns }} />
 */
export function fitColumns<R extends GridValidRowModel>(options: {
  columns: readonly GridColDef<R>[];
  /** The width the columns have: the grid's inner width, less the checkbox column. */
  available: number;
  hideable: boolean;
  essential: readonly string[];
  /** The user's choices of visible columns. */
  chosen: ColumnVisibility;
  measure: MeasureText;
  font: string;
}): FittedColumns<R> {
  const { available, chosen, essential } = options;
  const columns = options.columns.map((column) => {
    if (column.field === ACTIONS_FIELD) return column;
    const least = Math.max(column.minWidth ?? 0, headerWidth(column, options.measure, options.font));
    return column.flex === undefined
      ? { ...column, width: Math.max(column.width ?? DEFAULT_WIDTH, least), minWidth: least }
      : { ...column, minWidth: least };
  });
  const hidden: Record<string, boolean> = {};
  const visible = (column: GridColDef<R>) => (chosen[column.field] ?? hidden[column.field] ?? true) !== false;

  // A column is hidden only when the others cannot make room for it: a fixed column counts at the
  // least width its content needs where it declares one (`minWidth`), else at its width; a flex
  // column at its `minWidth`.
  const declaresLeast = new Set(options.columns.filter((column) => column.minWidth !== undefined).map((c) => c.field));
  const room = (column: GridColDef<R>) =>
    declaresLeast.has(column.field) ? leastWidth(column) : preferredWidth(column);
  if (options.hideable) {
    for (const column of [...columns].reverse()) {
      if (totalOf(columns, visible, room) <= available) break;
      if (
        column.field === ACTIONS_FIELD ||
        essential.includes(column.field) ||
        chosen[column.field] !== undefined ||
        column.hideable === false
      )
        continue;
      hidden[column.field] = false;
    }
  }

  const resolved = flexWidths(shareShortfall(columns, visible, available), visible, available);

  return {
    columns: resolved,
    hidden,
    chosenFrom: (model) => choicesIn(model, hidden, chosen),
  };
}

/**
 * The grid's model after a change in its column panel, as the user's choices to keep: what differs
 * from the fitted start (`hidden`), and earlier choices still standing; `restart` names columns whose
 * change goes back to the start instead of being kept.
 */
function choicesIn(
  model: ColumnVisibility,
  hidden: ColumnVisibility,
  chosen: ColumnVisibility,
  restart: (field: string, visible: boolean) => boolean = () => false,
): ColumnVisibility {
  return Object.fromEntries(
    Object.entries(model).filter(
      ([field, visible]) =>
        !restart(field, visible) && (visible !== (hidden[field] ?? true) || chosen[field] === visible),
    ),
  );
}

/** A column's width before any is given up: a fixed column's own, a flexible column's least. */
const preferredWidth = <R extends GridValidRowModel>(column: GridColDef<R>) =>
  column.flex === undefined ? (column.width ?? DEFAULT_WIDTH) : (column.minWidth ?? 0);

/** The least a column gives up its width to: a fixed column's `minWidth`; row actions and flexible columns give none. */
const leastWidth = <R extends GridValidRowModel>(column: GridColDef<R>) =>
  column.flex === undefined && column.field !== ACTIONS_FIELD ? (column.minWidth ?? 0) : preferredWidth(column);

const totalOf = <R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  visible: (column: GridColDef<R>) => boolean,
  width: (column: GridColDef<R>) => number,
) => columns.filter(visible).reduce((sum, column) => sum + width(column), 0);

/**
 * What the visible columns need beyond `available` is taken from the fixed ones, each in
 * proportion to what it can give down to its `minWidth`, in whole pixels.
 */
function shareShortfall<R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  visible: (column: GridColDef<R>) => boolean,
  available: number,
): GridColDef<R>[] {
  const shortfall = totalOf(columns, visible, preferredWidth) - available;
  const givable = totalOf(columns, visible, (column) => preferredWidth(column) - leastWidth(column));
  if (shortfall <= 0 || givable <= 0) return [...columns];
  const share = Math.min(1, shortfall / givable);
  return columns.map((column) =>
    column.flex === undefined && column.field !== ACTIONS_FIELD
      ? { ...column, width: Math.floor(preferredWidth(column) - (preferredWidth(column) - leastWidth(column)) * share) }
      : column,
  );
}

/**
 * The flexible columns take what is left, in proportion to their flex, in whole pixels: the grid's
 * own sharing rounds up, and a pixel too many scrolls the grid sideways.
 */
function flexWidths<R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  visible: (column: GridColDef<R>) => boolean,
  available: number,
): GridColDef<R>[] {
  const flexible = columns.filter((column) => column.flex !== undefined && visible(column));
  const fixedTotal = totalOf(columns, (column) => column.flex === undefined && visible(column), preferredWidth);
  const flexTotal = flexible.reduce((sum, column) => sum + (column.flex ?? 0), 0);
  const left = Math.max(0, available - fixedTotal - flexible.reduce((sum, column) => sum + (column.minWidth ?? 0), 0));
  return columns.map((column) => {
    if (column.flex === undefined) return column;
    const { flex, ...rest } = column;
    return { ...rest, width: (column.minWidth ?? 0) + (flexTotal > 0 ? Math.floor((left * flex) / flexTotal) : 0) };
  });
}

/** Fixed column widths on a phone, as a share of the width the area gives them. */
const NARROW_WIDTH_SHARE = 0.75;
/** The reading width a flexible column (a name, a title) keeps on a phone, or its own minimum if less. */
const NARROW_FLEX_MIN = 100;
/** The least a flexible column gives up its reading width to, for columns that never give way. */
const NARROW_FLEX_FLOOR = 64;

/**
 * Under 768 px (spec 000 §9 `sm`) a grid shows its essential columns, so that they fit the screen
 * without scrolling sideways: the other columns start hidden (the user's own choices, kept in the
 * list state, still win), fixed widths shrink (never below what their content declares or their
 * header needs) and flexible columns keep a reading width (`NARROW_FLEX_MIN`, or their header's if
 * more). When even the essential columns need more than the grid's width, the fixed ones shrink to
 * their least width, then give way in the reverse of the order they are listed in: never the first
 * one, the first flexible one (the name or title), the row actions or the sorted column.
 * A phone then reads a device's whole name and its CPU rather than six columns of a few letters
 * each. A column that gave way is in the column panel; shown there, it is the user's choice, and
 * hidden again it is back to the narrow start, never a choice that would hide it on a wide screen.
 * Headers drop their column menu, whose button a touch screen always shows and which would not fit
 * beside the title; sorting stays on the header, the column panel in the toolbar.
 *
 * @example
 *   const narrow = narrowColumns({ columns, essential: ['workUnitId', 'title', 'severityId', 'stateId'], chosen: list.state.columns, available: 340, headerWidth, keep: ['severityId'] });
 *   <DataGrid columns={narrow.columns} columnVisibilityModel={{ ...narrow.hidden, ...list.state.columns }}
 *     onColumnVisibilityModelChange={(model) => list.setColumns(narrow.chosenFrom(model))} />
 */
export function narrowColumns<R extends GridValidRowModel>(options: {
  columns: readonly GridColDef<R>[];
  essential: readonly string[];
  /** The user's choices of visible columns. */
  chosen: ColumnVisibility;
  /** The grid's inner width; 0 while it is not known, when nothing gives way. */
  available: number;
  /** The width a column's header needs on a phone (its title's longest word, its padding and the buttons it shows). */
  headerWidth: (column: GridColDef<R>) => number;
  /** Columns that never give way: the one the grid shows sorted. */
  keep: readonly string[];
}): FittedColumns<R> {
  const { essential, chosen, available } = options;
  const hidden: Record<string, boolean> = Object.fromEntries(
    options.columns.filter((column) => !essential.includes(column.field)).map((column) => [column.field, false]),
  );
  const least = (column: GridColDef<R>) => Math.max(column.minWidth ?? 0, options.headerWidth(column));
  let columns = options.columns.map((column): GridColDef<R> => {
    // Row actions keep their width: their icons do not shrink.
    if (column.field === ACTIONS_FIELD) return column;
    if (column.flex !== undefined)
      return {
        ...column,
        minWidth: Math.max(options.headerWidth(column), Math.min(column.minWidth ?? NARROW_FLEX_MIN, NARROW_FLEX_MIN)),
        disableColumnMenu: true,
      };
    const shrunk = Math.round((column.width ?? DEFAULT_WIDTH) * NARROW_WIDTH_SHARE);
    return { ...column, width: Math.max(shrunk, least(column)), minWidth: least(column), disableColumnMenu: true };
  });
  // The essential columns that give way on this screen unless the user shows them.
  const yielding = new Set<string>();
  if (available > 0) {
    const visible = (column: GridColDef<R>) => (chosen[column.field] ?? hidden[column.field] ?? true) !== false;
    const firstFlexible = essential.find(
      (field) => options.columns.find((column) => column.field === field)?.flex !== undefined,
    );
    const kept = new Set([essential[0], firstFlexible, ACTIONS_FIELD, ...options.keep]);
    for (const field of [...essential].reverse()) {
      if (totalOf(columns, visible, leastWidth) <= available) break;
      if (kept.has(field)) continue;
      yielding.add(field);
      if (chosen[field] === undefined) hidden[field] = false;
    }
    // Where the columns that never give way still need more, the names and titles give up some of
    // their reading width, down to `NARROW_FLEX_FLOOR` or their header's, rather than the grid
    // scrolling sideways.
    const floor = (column: GridColDef<R>) => Math.max(NARROW_FLEX_FLOOR, options.headerWidth(column));
    const over = totalOf(columns, visible, leastWidth) - available;
    const flexGivable = totalOf(columns, visible, (column) =>
      column.flex === undefined ? 0 : Math.max(0, (column.minWidth ?? 0) - floor(column)),
    );
    if (over > 0 && flexGivable > 0) {
      const share = Math.min(1, over / flexGivable);
      columns = columns.map((column) => {
        const minWidth = column.minWidth ?? 0;
        if (column.flex === undefined || minWidth <= floor(column)) return column;
        return { ...column, minWidth: Math.floor(minWidth - (minWidth - floor(column)) * share) };
      });
    }
    columns = flexWidths(shareShortfall(columns, visible, available), visible, available);
  }
  return {
    columns,
    hidden,
    // A column shown on the phone and hidden again goes back to the narrow start.
    chosenFrom: (model) =>
      choicesIn(model, hidden, chosen, (field, visible) => !visible && yielding.has(field) && chosen[field] === true),
  };
}

/** The theme's font family (MUI's default), for measuring what the grid shows. */
export const GRID_FONT_FAMILY = '"Roboto", "Helvetica", "Arial", sans-serif';

/**
 * What a `DateWithAge` cell needs: the widest date of the spec's format in the local zone, a
 * space and the widest age ("59 min ago"), and the cell's padding.
 */
export function dateWithAgeWidth(formatted: string, measure: MeasureText = measureText): number {
  return (
    Math.ceil(
      measure(`${formatted} `, `400 14px ${GRID_FONT_FAMILY}`) + measure('59 min ago', `400 12px ${GRID_FONT_FAMILY}`),
    ) +
    HEADER_PADDING +
    SLACK
  );
}

/** What a stacked `DateWithAge` cell needs: the wider of the date and the age under it, and the cell's padding. */
export function stackedDateWithAgeWidth(formatted: string, measure: MeasureText = measureText): number {
  return (
    Math.ceil(
      Math.max(
        measure(formatted, `400 14px ${GRID_FONT_FAMILY}`),
        measure('59 min ago', `400 12px ${GRID_FONT_FAMILY}`),
      ),
    ) +
    HEADER_PADDING +
    SLACK
  );
}

let canvas: HTMLCanvasElement | undefined;

/** Measures text as the page renders it (a canvas shares the page's fonts). */
export const measureText: MeasureText = (text, font) => {
  canvas ??= document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return text.length * 8;
  context.font = font;
  return context.measureText(text).width;
};
