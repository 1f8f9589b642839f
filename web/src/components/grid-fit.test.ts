import type { GridColDef } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import { fitColumns, headerWidth } from './grid-fit';

interface Row {
  id: number;
}

/** Ten pixels a character: a header's least width is then its longest word's length × 10 + 52. */
const measure = (text: string) => text.length * 10;
const FONT = '14px test';

function fit(columns: GridColDef<Row>[], available: number, essential: string[] = ['name']) {
  return fitColumns({ columns, available, hideable: true, essential, chosen: {}, measure, font: FONT });
}

const shownFields = (fitted: ReturnType<typeof fit>) =>
  fitted.columns.filter((column) => fitted.hidden[column.field] !== false).map((column) => column.field);

describe('fitting columns to the grid', () => {
  // Least widths: name 180 (flex), state 150 (declared), date 200 (declared), notes 100 (header).
  const columns: GridColDef<Row>[] = [
    { field: 'name', headerName: 'Name', flex: 1, minWidth: 180 },
    { field: 'state', headerName: 'State', width: 200, minWidth: 150 },
    { field: 'date', headerName: 'Date', width: 260, minWidth: 200 },
    { field: 'notes', headerName: 'Notes', width: 160 },
  ];

  it('shows every column at its own width where there is room, the flex column taking the rest', () => {
    const fitted = fit(columns, 900);
    expect(shownFields(fitted)).toEqual(['name', 'state', 'date', 'notes']);
    expect(fitted.columns.map((column) => column.width)).toEqual([900 - 200 - 260 - 160, 200, 260, 160]);
  });

  it('takes the room from the columns that declare what their content needs before hiding any', () => {
    // 800 px at their widths; 690 px with state and date at their least and notes at its width.
    const fitted = fit(columns, 700);
    expect(shownFields(fitted)).toEqual(['name', 'state', 'date', 'notes']);
    const widths = Object.fromEntries(fitted.columns.map((column) => [column.field, column.width ?? 0]));
    expect(widths.state).toBeGreaterThanOrEqual(150);
    expect(widths.date).toBeGreaterThanOrEqual(200);
    expect(180 + (widths.state ?? 0) + (widths.date ?? 0) + (widths.notes ?? 0)).toBeLessThanOrEqual(700);
  });

  it('hides the last column that is not essential when even the least widths do not fit', () => {
    const fitted = fit(columns, 600);
    expect(fitted.hidden).toEqual({ notes: false });
    expect(shownFields(fitted)).toEqual(['name', 'state', 'date']);
  });

  it('does not shrink a column below its width for another one unless it declares a least width', () => {
    // Without its declared least width, date keeps 260: 180 + 150 + 260 + 160 = 750 does not fit 700.
    const undeclared = columns.map((column) => (column.field === 'date' ? { ...column, minWidth: undefined } : column));
    expect(fit(undeclared, 700).hidden).toEqual({ notes: false });
  });

  it('keeps the essential columns and those the user chose, and hides nothing in a grid without a column panel', () => {
    expect(fit(columns, 600, ['name', 'notes']).hidden).toEqual({ date: false });
    const chosen = fitColumns({
      columns,
      available: 600,
      hideable: true,
      essential: ['name'],
      chosen: { notes: true },
      measure,
      font: FONT,
    });
    expect(chosen.hidden).toEqual({ date: false });
    const fixed = fitColumns({
      columns,
      available: 600,
      hideable: false,
      essential: ['name'],
      chosen: {},
      measure,
      font: FONT,
    });
    expect(fixed.hidden).toEqual({});
  });

  it("never makes a column narrower than its header's longest word with the sort button", () => {
    const assignment: GridColDef<Row> = { field: 'assignment', headerName: 'Assignment Group', width: 60 };
    const fitted = fit([{ field: 'name', headerName: 'Name', flex: 1, minWidth: 100 }, assignment], 300);
    expect(headerWidth(assignment, measure, FONT)).toBe(10 * 10 + 20 + 28 + 4);
    expect(fitted.columns.find((column) => column.field === 'assignment')?.width).toBe(152);
  });
});
