import type { GridColDef } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import { fitColumns, headerWidth, narrowColumns } from './grid-fit';
import { ACTIONS_FIELD } from './grid-model';

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

describe('narrowColumns (a screen under 768 px)', () => {
  /** Every header needs 40 px on the phone, Enabled's 79. */
  const headerOf = (column: GridColDef): number => (column.field === 'enabled' ? 79 : 40);
  function narrow(
    columns: GridColDef[],
    essential: string[],
    options: {
      chosen?: Record<string, boolean>;
      available?: number;
      headerWidth?: typeof headerOf;
      keep?: string[];
    } = {},
  ) {
    const chosen = options.chosen ?? {};
    const fitted = narrowColumns({
      columns,
      essential,
      chosen,
      available: options.available ?? 0,
      headerWidth: options.headerWidth ?? headerOf,
      keep: options.keep ?? [],
    });
    const visibility = { ...fitted.hidden, ...chosen };
    const shown = fitted.columns.filter((column) => visibility[column.field] !== false);
    return { ...fitted, visibility, widths: Object.fromEntries(shown.map((column) => [column.field, column.width])) };
  }
  const workUnits: GridColDef[] = [
    { field: 'workUnitId', width: 80 },
    { field: 'tenant', width: 130 },
    { field: 'title', flex: 1, minWidth: 240 },
    { field: ACTIONS_FIELD, width: 120 },
  ];
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

  it('while the width is unknown: the essential columns, fixed widths shrunk, row actions whole, the title at its reading width', () => {
    const fitted = narrow(workUnits, ['workUnitId', 'title', ACTIONS_FIELD]);
    expect(fitted.visibility).toEqual({ tenant: false });
    expect(fitted.widths).toEqual({ workUnitId: 60, title: undefined, [ACTIONS_FIELD]: 120 });
    expect(fitted.columns.find((column) => column.field === 'title')?.minWidth).toBe(100);
    expect(narrow(devices, essential).visibility).toEqual({ location: false });
  });

  it("the user's own choices win, and only choices are kept: never the narrow start, which would hide columns on a wide screen", () => {
    const fitted = narrow(workUnits, ['workUnitId', 'title'], { chosen: { title: false } });
    expect(fitted.visibility).toEqual({ tenant: false, [ACTIONS_FIELD]: false, title: false });
    // The user shows Tenant in the column panel.
    expect(fitted.chosenFrom({ tenant: true, [ACTIONS_FIELD]: false, title: false })).toEqual({
      tenant: true,
      title: false,
    });
    // And shows Title again.
    expect(fitted.chosenFrom({ tenant: false, [ACTIONS_FIELD]: false, title: true })).toEqual({});
  });

  it('when the essential columns need more than the width, fixed ones shrink to their least width, then give way from the last listed back; the rest fill the width exactly', () => {
    // At their least widths name 100 + CPU 40 + Age 40 + actions 140 = 320: Enabled and Online gave way.
    const fitted = narrow(devices, essential, { available: 340 });
    expect(fitted.visibility).toEqual({ location: false, enabled: false, isOnline: false });
    expect(fitted.widths).toEqual({ name: 101, cpuPercent: 47, packetTimestamp: 52, [ACTIONS_FIELD]: 140 });
    // A wider phone keeps them all, each shrunk by its share of what the width lacks, in whole
    // pixels, Enabled never below its header's 79 px.
    const wider = narrow(devices, essential, { available: 460 });
    expect(wider.visibility).toEqual({ location: false });
    expect(wider.widths).toEqual({
      name: 102,
      cpuPercent: 44,
      packetTimestamp: 47,
      isOnline: 48,
      enabled: 79,
      [ACTIONS_FIELD]: 140,
    });
    expect(Object.values(wider.widths).reduce<number>((sum, width) => sum + (width ?? 0), 0)).toBe(460);
  });

  it("the user's shown column takes the room of the next one; hidden again, it is back to the narrow start, not a choice", () => {
    const fitted = narrow(devices, essential, { chosen: { isOnline: true }, available: 340 });
    expect(fitted.visibility).toEqual({ location: false, isOnline: true, enabled: false, packetTimestamp: false });
    // Showing Enabled in the column panel is kept as a choice; the columns that gave way are not.
    expect(fitted.chosenFrom({ ...fitted.visibility, enabled: true })).toEqual({ isOnline: true, enabled: true });
    // Hiding Online again drops the choice: a kept `false` would hide it on a wide screen too.
    expect(fitted.chosenFrom({ ...fitted.visibility, isOnline: false })).toEqual({});
    // A column the user hid on a wide screen stays their choice when the phone's panel changes.
    const hiddenOnDesktop = narrow(devices, essential, { chosen: { cpuPercent: false }, available: 200 });
    expect(hiddenOnDesktop.chosenFrom({ ...hiddenOnDesktop.visibility, location: true })).toEqual({
      cpuPercent: false,
      location: true,
    });
  });

  it('the sorted column does not give way', () => {
    const fitted = narrow(devices, essential, { available: 340, keep: ['isOnline'] });
    expect(fitted.visibility).toEqual({ location: false, enabled: false, packetTimestamp: false });
  });

  it('the name or title gives way to no other column, wherever it is listed; other flexible columns do', () => {
    const software: GridColDef[] = [
      { field: 'id', width: 80 },
      { field: 'name', flex: 2, minWidth: 160 },
      { field: 'version', flex: 1 },
      { field: 'deviceName', flex: 1 },
    ];
    const listed = ['id', 'name', 'version', 'deviceName'];
    expect(narrow(software, listed, { available: 300 }).visibility).toEqual({ deviceName: false });
    expect(narrow(software, listed, { available: 100 }).visibility).toEqual({ deviceName: false, version: false });
  });

  it('where the columns that never give way need more than the width, the title gives up reading width down to 64 px, never below its header', () => {
    const outbox: GridColDef[] = [
      { field: 'created', width: 230, minWidth: 230 },
      { field: 'subject', flex: 1 },
      { field: 'transport', width: 100 },
    ];
    const fitted = narrow(outbox, ['created', 'subject', 'transport'], { available: 330 });
    expect(fitted.visibility).toEqual({ transport: false });
    expect(fitted.widths).toEqual({ created: 230, subject: 100 });
    expect(narrow(outbox, ['created', 'subject'], { available: 250 }).widths).toEqual({ created: 230, subject: 64 });
    const wideHeader = (column: GridColDef) => (column.field === 'subject' ? 110 : headerOf(column));
    expect(narrow(outbox, ['created', 'subject'], { available: 250, headerWidth: wideHeader }).widths).toEqual({
      created: 230,
      subject: 110,
    });
  });
});
