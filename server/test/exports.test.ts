import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ControlSet } from '@cfs/contracts/compliance';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { DEMO } from '../src/db/demo-ids.js';
import { BASE_ROLES } from '../src/db/seed.js';
import { TENANT_TABLES } from '../src/db/tenant-tables.js';
import type { FieldDef, Resource } from '../src/odata/resource.js';
import { createUserIn } from './factories.js';
import { reportFigures } from './figures.js';
import { createTestPortal, registeredRoutes, type TestPortal } from './harness.js';
import { createRowsOfEveryList } from './list-fixtures.js';

/*
 * Every CSV export, probed as a Contoso administrator: the tenant's text columns are first set to
 * values a spreadsheet would run as formulas (also after leading whitespace), and to quotes, commas,
 * line breaks and other scripts; Fabrikam's rows to text of their own. Then each export must
 * escape every formula-leading cell, give back exactly what the list answers (in JSON) once the
 * escape is undone, and hold no row of another tenant.
 */

/** Text a spreadsheet would run (RFC 4180 quoting and OWASP's CSV injection list), and text that tests quoting. */
const TRICKY = [
  '=1+1',
  '+1',
  '-1',
  '@SUM(A1)',
  '\t=cmd',
  '\r=cmd',
  ' =1+1',
  '  @x',
  '\n-2',
  '\u00a0=1',
  '=HYPERLINK("http://x.example","y")',
  "'=1",
  "'quoted",
  'a "quoted", text',
  'line\nbreak\r\nthere',
  'comma, here',
  'unicode ✓ 日本語 🎉',
  '\ttab',
  '-',
  '＝1+1',
  '＋1',
  '－1',
  '＠SUM(A1)',
  '﹦1',
  '−1',
  '\u3000＝1',
] as const;
const OTHER_TENANT_MARK = 'FABRIKAM-ONLY';
const EXPORTER = 'contoso-exporter';

/**
 * What a spreadsheet would read as a formula: `=`, `+`, `-` or `@` (also full-width, small or the
 * minus sign, which spreadsheets read as them) after any leading whitespace,
 * or a tab or carriage return first (OWASP, CSV injection).
 */
const formulaLeading = (cell: string) => /^\s*[=+\-@＝＋－＠﹦﹢﹣﹫−]/.test(cell) || /^[\t\r]/.test(cell);
/**
 * The export's escape undone: an apostrophe before text that (after any more apostrophes) would be
 * a formula was added by the export. Stored text is then given back exactly.
 */
const unescapeCell = (cell: string) =>
  cell.startsWith("'") && formulaLeading(cell.replace(/^'+/, '')) ? cell.slice(1) : cell;

/** RFC 4180: fields separated by commas, quoted when they hold a quote, a comma or a line break. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || (char === '\r' && text[i + 1] === '\n')) {
      if (char === '\r') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** The text the grid's cell shows for a list value (enum labels, JSON as text). */
function expectedCell(value: unknown, field: FieldDef | undefined): string {
  if (value === null || value === undefined) return '';
  if (field?.labels)
    return Object.hasOwn(field.labels, String(value))
      ? (field.labels[String(value)] ?? '')
      : SHELL_MESSAGES.unknownEnum;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

interface ExportRoute {
  method: 'GET' | 'POST';
  /** The list path; the export answers `{path}/Export`. */
  path: string;
  resource: Resource;
}

let portal: TestPortal;
const exportRoutes: ExportRoute[] = [];
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const columnOf = (name: string, field: FieldDef) => field.column ?? snakeCase(name);

/**
 * The keys of a table's rows of one tenant (`is`) or of every other tenant (`isNot`), through its
 * tenant column or its parent's. A table no tenant owns (work unit types) is every caller's.
 */
function tenantRows(table: string, keyColumn: string, tenant: { is: string } | { isNot: string }) {
  const condition = (column: ReturnType<typeof sql.ref>) =>
    'is' in tenant ? sql`${column} = ${tenant.is}` : sql`${column} IS NOT NULL AND ${column} <> ${tenant.isNot}`;
  if (table in TENANT_TABLES)
    return sql<{
      key: string;
    }>`SELECT ${sql.ref(keyColumn)}::text AS key FROM ${sql.table(table)} WHERE ${condition(sql.ref('tenant_id'))} ORDER BY ${sql.ref(keyColumn)}`;
  if (table === 'work_unit_subcategory') {
    return sql<{
      key: string;
    }>`SELECT s.work_unit_subcategory_id::text AS key FROM work_unit_subcategory s JOIN work_unit_category c USING (work_unit_category_id) WHERE ${condition(sql.ref('c.tenant_id'))} ORDER BY 1`;
  }
  return 'is' in tenant
    ? sql<{
        key: string;
      }>`SELECT ${sql.ref(keyColumn)}::text AS key FROM ${sql.table(table)} ORDER BY ${sql.ref(keyColumn)}`
    : sql<{ key: string }>`SELECT NULL::text AS key WHERE false`;
}

/** The resource's own text columns: what a write of text can reach (not computed, not an enum, not the key). */
async function textColumns(resource: Resource): Promise<string[]> {
  const { rows } = await sql<{ column_name: string }>`
    SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${resource.table} AND data_type IN ('text', 'character varying')`.execute(
    portal.db,
  );
  const texts = new Set(rows.map((row) => row.column_name));
  return Object.entries(resource.fields)
    .filter(
      ([name, field]) =>
        field.type === 'string' &&
        !field.sql &&
        !field.labels &&
        name !== resource.key &&
        texts.has(columnOf(name, field)),
    )
    .map(([name, field]) => columnOf(name, field));
}

const isConstraintError = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && String(error.code).startsWith('23');

/**
 * Sets the resource's text columns of the rows with these keys to `value(row, column)`. A column
 * the database refuses the text for (a check, a unique key) keeps its value.
 */
async function setTexts(
  resource: Resource,
  rows: readonly string[],
  value: (row: number, column: number) => string,
): Promise<void> {
  const keyColumn = columnOf(resource.key, resource.fields[resource.key]!);
  const columns = await textColumns(resource);
  if (columns.length === 0) return;
  const update = (key: string, set: [string, string][]) =>
    sql`UPDATE ${sql.table(resource.table)} SET ${sql.join(set.map(([column, text]) => sql`${sql.ref(column)} = ${text}`))} WHERE ${sql.ref(keyColumn)}::text = ${key}`.execute(
      portal.db,
    );
  for (const [j, key] of rows.entries()) {
    const set = columns.map((column, k): [string, string] => [column, value(j, k)]);
    await update(key, set).catch(async (error: unknown) => {
      if (!isConstraintError(error)) throw error;
      for (const one of set)
        await update(key, [one]).catch((failed: unknown) =>
          isConstraintError(failed) ? undefined : Promise.reject(failed),
        );
    });
  }
}

beforeAll(async () => {
  portal = await createTestPortal();
  for (const route of await registeredRoutes(portal)) {
    const resource = (route.config as { listResource?: Resource } | undefined)?.listResource;
    const method = String(route.method);
    if (resource && route.url.endsWith('/Export') && (method === 'GET' || method === 'POST'))
      exportRoutes.push({ method, path: route.url.slice(0, -'/Export'.length), resource });
  }
  // Rows of every list in both tenants (the seed leaves some lists empty).
  await createRowsOfEveryList(portal, DEMO.contoso, DEMO.contosoProduction);
  await createRowsOfEveryList(portal, DEMO.fabrikam, DEMO.fabrikamProduction);
  await createUserIn(portal, EXPORTER, BASE_ROLES.Administrator!.permissions, DEMO.contoso, {
    subscriptionId: DEMO.contosoProduction,
  });
  for (const { resource } of exportRoutes) {
    const keyColumn = columnOf(resource.key, resource.fields[resource.key]!);
    const own = (await tenantRows(resource.table, keyColumn, { is: DEMO.contoso }).execute(portal.db)).rows.map(
      (row) => row.key,
    );
    await setTexts(resource, own.slice(0, TRICKY.length), (row, column) => TRICKY[(row + column) % TRICKY.length]!);
    const others = (await tenantRows(resource.table, keyColumn, { isNot: DEMO.contoso }).execute(portal.db)).rows.map(
      (row) => row.key,
    );
    await setTexts(
      resource,
      others.slice(0, 5),
      (row, column) => `${TRICKY[(row + column) % TRICKY.length]!} ${OTHER_TENANT_MARK}`,
    );
  }
});
afterAll(async () => {
  await portal?.close();
});

describe('CSV exports', () => {
  const figures = { exports: 0, unescaped: 0, mismatches: 0, otherTenantRows: 0 };

  test('every list export escapes formula cells, round-trips exactly and holds only the caller’s tenant', async () => {
    expect(exportRoutes.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const route of exportRoutes) {
      const { resource } = route;
      const name = `${route.method} ${route.path}/Export`;
      const keyColumn = columnOf(resource.key, resource.fields[resource.key]!);
      const query = { $orderby: `${resource.key} asc`, $top: String(resource.maxTop) };
      const list = await portal.as(EXPORTER, { method: 'GET', url: route.path, query });
      const exported =
        route.method === 'GET'
          ? await portal.as(EXPORTER, { method: 'GET', url: `${route.path}/Export`, query })
          : await portal.as(EXPORTER, { method: 'POST', url: `${route.path}/Export`, payload: query });
      if (list.statusCode !== 200 || exported.statusCode !== 200) {
        problems.push(`${name}: list ${list.statusCode}, export ${exported.statusCode} ${exported.body.slice(0, 200)}`);
        continue;
      }
      figures.exports += 1;
      const [header = [], ...cells] = parseCsv(exported.body);
      const jsonRows = list.json<{ value: Record<string, unknown>[] }>().value;
      for (const cell of [...header, ...cells.flat()]) {
        if (formulaLeading(cell)) {
          figures.unescaped += 1;
          problems.push(`${name}: unescaped ${JSON.stringify(cell)}`);
        }
      }
      if (cells.length !== jsonRows.length)
        problems.push(`${name}: ${cells.length} CSV rows, ${jsonRows.length} list rows`);
      const names = header.map(unescapeCell);
      for (const [i, row] of cells.entries()) {
        for (const [c, cell] of row.entries()) {
          const fieldName = names[c] ?? '';
          const expected = expectedCell(jsonRows[i]?.[fieldName], resource.fields[fieldName]);
          if (unescapeCell(cell) !== expected) {
            figures.mismatches += 1;
            problems.push(`${name} ${fieldName}: ${JSON.stringify(cell)} for ${JSON.stringify(expected)}`);
          }
        }
      }
      const keyIndex = names.indexOf(resource.key);
      const others = new Set(
        (await tenantRows(resource.table, keyColumn, { isNot: DEMO.contoso }).execute(portal.db)).rows.map(
          (row) => row.key,
        ),
      );
      const leaked = cells.filter(
        (row) =>
          others.has(unescapeCell(row[keyIndex] ?? '')) ||
          row.some((cell) => cell.includes(OTHER_TENANT_MARK) || cell.includes(DEMO.fabrikam)),
      );
      figures.otherTenantRows += leaked.length;
      if (leaked.length > 0) problems.push(`${name}: ${leaked.length} rows of another tenant`);
      // The probe reached the export: its own text columns came back escaped.
      const escaped = cells.flat().filter((cell) => unescapeCell(cell) !== cell).length;
      if (escaped === 0 && (await textColumns(resource)).length > 0)
        problems.push(`${name}: no formula-leading text reached it`);
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(figures).toMatchObject({ exports: exportRoutes.length, unescaped: 0, mismatches: 0, otherTenantRows: 0 });
  });

  test('the compliance export escapes notes, round-trips them and holds only the asked tenant’s week', async () => {
    const problems: string[] = [];
    const before = { ...figures };
    const startDate = '2026-06-07';
    const sets = (
      await portal.as(EXPORTER, {
        method: 'GET',
        url: `/v1/controlsets?tenantId=${DEMO.contoso}&checkDate=${startDate}`,
      })
    ).json<{ value: ControlSet[] }>().value;
    const moderate = sets.find((set) => set.name === 'NIST SP 800-53 Rev. 5 Moderate baseline');
    if (!moderate) throw new Error('no moderate baseline');
    const controls = moderate.controls.slice(0, TRICKY.length);
    for (const [i, control] of controls.entries()) {
      const own = await portal.as(EXPORTER, {
        method: 'POST',
        url: '/v1/controlstatuses',
        payload: {
          checkDate: startDate,
          status: 'Notset',
          notes: TRICKY[i],
          tenantId: DEMO.contoso,
          controlId: control.id,
        },
      });
      expect(own.statusCode, own.body).toBe(200);
      const other = await portal.as('admin', {
        method: 'POST',
        url: '/v1/controlstatuses',
        payload: {
          checkDate: startDate,
          status: 'Notset',
          notes: `${TRICKY[i]} ${OTHER_TENANT_MARK}`,
          tenantId: DEMO.fabrikam,
          controlId: control.id,
        },
      });
      expect(other.statusCode, other.body).toBe(200);
    }
    const stored = new Map(controls.map((control, i) => [control.name, TRICKY[i]]));
    for (const tenantId of [DEMO.contoso, DEMO.fabrikam]) {
      const exported = await portal.as(EXPORTER, {
        method: 'POST',
        url: '/v1/controlsets/Export',
        payload: { startDate, tenantId, controlSetId: moderate.id },
      });
      if (tenantId === DEMO.fabrikam) {
        // Another tenant's week is not the caller's to read: refused, or no row of it.
        if (exported.statusCode < 300)
          figures.otherTenantRows += parseCsv(exported.body).filter((row) =>
            row.some((cell) => cell.includes(OTHER_TENANT_MARK)),
          ).length;
        continue;
      }
      expect(exported.statusCode, exported.body).toBe(200);
      figures.exports += 1;
      const [header = [], ...cells] = parseCsv(exported.body);
      for (const cell of [...header, ...cells.flat()]) {
        if (formulaLeading(cell)) {
          figures.unescaped += 1;
          problems.push(`compliance export: unescaped ${JSON.stringify(cell)}`);
        }
      }
      const at = (title: string) => header.indexOf(title);
      for (const row of cells) {
        const control = moderate.controls.find((c) => c.name === unescapeCell(row[at('Control')] ?? ''));
        const expected = [
          moderate.name,
          control?.family ?? '',
          control?.name ?? '',
          control?.title ?? '',
          stored.has(control?.name ?? '') ? 'Notset' : '',
          stored.get(control?.name ?? '') ?? '',
        ];
        const got = ['Control Set', 'Family', 'Control', 'Title', 'Status', 'Notes'].map((title) =>
          unescapeCell(row[at(title)] ?? ''),
        );
        if (JSON.stringify(got) !== JSON.stringify(expected)) {
          figures.mismatches += 1;
          problems.push(`compliance export: ${JSON.stringify(got)} for ${JSON.stringify(expected)}`);
        }
        if (row.some((cell) => cell.includes(OTHER_TENANT_MARK))) figures.otherTenantRows += 1;
      }
      expect(cells.length).toBe(moderate.controls.length);
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(figures).toEqual({ ...before, exports: before.exports + 1 });
  });

  afterAll(() => {
    reportFigures('exports', {
      exports: figures.exports,
      'formula cells unescaped': figures.unescaped,
      'round-trip mismatches': figures.mismatches,
      "other tenants' rows": figures.otherTenantRows,
    });
  });
});
