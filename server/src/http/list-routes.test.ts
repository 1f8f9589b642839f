import { describe, expect, test } from 'vitest';
import type { FieldDef } from '../odata/resource.js';
import { toCsv } from './list-routes.js';

const column = (title: string, field: FieldDef) => ({ title, ref: { relations: [], name: title.toLowerCase(), field } });

describe('toCsv', () => {
  test('writes enum labels ("unknown" for a value the enum has not), empty cells for nothing, JSON as text, formulas escaped', () => {
    const columns = [column('State', { type: 'integer', labels: { 1: 'New', 3: 'In Progress' } }), column('Note', { type: 'string' }), column('Data', { type: 'json' }), column('Done', { type: 'boolean' })];
    const csv = toCsv(columns, ['[3,"=SUM(A1)",{"a":1},true]', '[42,null,null,false]']);
    expect(csv).toBe('State,Note,Data,Done\nIn Progress,\'=SUM(A1),"{""a"":1}",true\nunknown,,,false\n');
  });
});
