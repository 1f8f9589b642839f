import { describe, expect, test } from 'vitest';
import type { FieldDef } from '../odata/resource.js';
import { spreadsheetSafe, toCsv } from './list-routes.js';

const column = (title: string, field: FieldDef) => ({
  title,
  ref: { relations: [], name: title.toLowerCase(), field },
});

describe('toCsv', () => {
  test('writes enum labels ("unknown" for a value the enum has not), empty cells for nothing, JSON as text, formulas escaped', () => {
    const columns = [
      column('State', { type: 'integer', labels: { 1: 'New', 3: 'In Progress' } }),
      column('Note', { type: 'string' }),
      column('Data', { type: 'json' }),
      column('Done', { type: 'boolean' }),
    ];
    const csv = toCsv(columns, ['[3,"=SUM(A1)",{"a":1},true]', '[42,null,null,false]']);
    expect(csv).toBe('State,Note,Data,Done\nIn Progress,\'=SUM(A1),"{""a"":1}",true\nunknown,,,false\n');
  });

  test('escapes the full-width and small spellings of = + - @ and the minus sign, which spreadsheets read as a formula', () => {
    for (const cell of [
      '＝1+1',
      '＋1',
      '－1',
      '＠SUM(A1)',
      '﹦1',
      '﹢1',
      '﹣1',
      '﹫x',
      '−1',
      ' ＝1',
      '\u3000＝HYPERLINK("x")',
      '\n＠x',
      "'＝1",
    ]) {
      expect(spreadsheetSafe(cell), JSON.stringify(cell)).toBe(`'${cell}`);
    }
    for (const cell of ['\t1', '\rx', '=1', ' -1'])
      expect(spreadsheetSafe(cell), JSON.stringify(cell)).toBe(`'${cell}`);
    for (const cell of ['1＝1', 'a－b', '日本語', '（1）', "'ok", ''])
      expect(spreadsheetSafe(cell), JSON.stringify(cell)).toBe(cell);
  });
});
