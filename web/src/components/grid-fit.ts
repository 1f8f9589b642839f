import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { ACTIONS_FIELD } from './grid-model';

type ColumnVisibility = Record<string, boolean>;

/** A header's padding (10 px a side) and its sort button (28 px; kept while hidden, and on both sides of a centred title). */
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
  /** The header's buttons shown beside its title, when not the sort button's room (a narrow grid's sorted or filtered column). */
  buttons?: number,
): number {
  const title = column.headerName ?? column.field;
  const longestWord = Math.max(0, ...title.split(/\s+/).map((word) => measure(word, font)));
  const sortable = column.sortable !== false;
  const centred = (column.headerAlign ?? (column.type === 'boolean' ? 'center' : undefined)) === 'center';
  const room = buttons ?? (sortable ? (centred ? 2 : 1) : 0);
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
  const preferred = (column: GridColDef<R>) =>
    column.flex === undefined ? (column.width ?? DEFAULT_WIDTH) : (column.minWidth ?? 0);
  const least = (column: GridColDef<R>) =>
    column.flex === undefined && column.field !== ACTIONS_FIELD ? (column.minWidth ?? 0) : preferred(column);
  const hidden: ColumnVisibility = {};
  const shown = () => columns.filter((column) => chosen[column.field] !== false && hidden[column.field] !== false);
  const total = (width: (column: GridColDef<R>) => number) => shown().reduce((sum, column) => sum + width(column), 0);

  // A column is hidden only when the others cannot make room for it: a fixed column counts at the
  // least width its content needs where it declares one (`minWidth`), else at its width; a flex
  // column at its `minWidth`.
  const declaresLeast = new Set(options.columns.filter((column) => column.minWidth !== undefined).map((c) => c.field));
  const room = (column: GridColDef<R>) => (declaresLeast.has(column.field) ? least(column) : preferred(column));
  if (options.hideable) {
    for (const column of [...columns].reverse()) {
      if (total(room) <= available) break;
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

  // Take the shortfall from the fixed columns, each in proportion to what it can give.
  const shortfall = total(preferred) - available;
  const givable = total((column) => preferred(column) - least(column));
  const share = shortfall > 0 && givable > 0 ? Math.min(1, shortfall / givable) : 0;
  const fitted =
    share === 0
      ? columns
      : columns.map((column) =>
          column.flex === undefined && column.field !== ACTIONS_FIELD
            ? { ...column, width: Math.floor(preferred(column) - (preferred(column) - least(column)) * share) }
            : column,
        );

  // The flex columns take what is left, in whole pixels: the grid's own sharing rounds up, and a
  // pixel too many scrolls the grid sideways.
  const visible = (column: GridColDef<R>) => chosen[column.field] !== false && hidden[column.field] !== false;
  const flexible = fitted.filter((column) => column.flex !== undefined && visible(column));
  const fixedTotal = fitted
    .filter((column) => column.flex === undefined && visible(column))
    .reduce((sum, column) => sum + (column.width ?? DEFAULT_WIDTH), 0);
  const flexTotal = flexible.reduce((sum, column) => sum + (column.flex ?? 0), 0);
  const left = Math.max(0, available - fixedTotal - flexible.reduce((sum, column) => sum + (column.minWidth ?? 0), 0));
  const resolved = fitted.map((column) => {
    if (column.flex === undefined) return column;
    const { flex, ...rest } = column;
    return { ...rest, width: (column.minWidth ?? 0) + (flexTotal > 0 ? Math.floor((left * flex) / flexTotal) : 0) };
  });

  return {
    columns: resolved,
    hidden,
    chosenFrom: (model) =>
      Object.fromEntries(
        Object.entries(model).filter(
          ([field, visible]) => visible !== (hidden[field] ?? true) || chosen[field] === visible,
        ),
      ),
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
