import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { ListQueryError } from './list-query-error.js';
import { ALL_TENANTS } from '../auth/tenant-scope.js';
import { buildListSql } from './list-query-sql.js';
import { parseExportColumns, parseListQuery } from './list-query.js';
import type { Resource } from './resource.js';
import { defineResource } from './resource.js';
import { compileOnly } from '../../test/compile-only.js';

interface DB {
  tenant: { tenant_id: string; name: string; enabled: boolean; created: Date; settings: unknown };
  work_unit: { work_unit_id: number; tenant_id: string; title: string; priority: number | null };
}

const tenants: Resource = defineResource({
  table: 'tenant',
  key: 'tenantId',
  fields: {
    tenantId: { type: 'guid' },
    name: { type: 'string' },
    enabled: { type: 'boolean' },
    created: { type: 'datetime' },
    settings: { type: 'json' },
  },
  relations: { workUnits: { kind: 'many', resource: () => workUnits, column: 'tenant_id' } },
  defaultOrderBy: 'name',
});

const workUnits: Resource = defineResource({
  table: 'work_unit',
  key: 'workUnitId',
  fields: {
    workUnitId: { type: 'integer' },
    tenantId: { type: 'guid' },
    title: { type: 'string' },
    priority: { type: 'integer' },
    label: { type: 'string', sql: (col) => sql`${col('title')} || ' #' || ${col('work_unit_id')}` },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenants, column: 'tenant_id', fields: ['tenantId', 'name'] },
    notes: { kind: 'many', resource: () => tenants, column: 'tenant_id' },
  },
  defaultOrderBy: 'priority desc',
  defaultTop: 25,
  maxTop: 100,
});

// Compiles SQL without a database.
const db = compileOnly<DB>();

describe('parseListQuery', () => {
  test('applies the resource defaults when the request has no options', () => {
    const parsed = parseListQuery(workUnits, {});
    expect(parsed.top).toBe(25);
    expect(parsed.skip).toBe(0);
    expect(parsed.count).toBe(false);
    expect(parsed.orderBy.map((key) => [key.ref.name, key.descending])).toEqual([
      ['priority', true],
      ['workUnitId', true],
    ]);
    expect(parsed.fields.map((field) => field.name)).toEqual(['workUnitId', 'tenantId', 'title', 'priority', 'label']);
  });

  test('always appends the key to $orderby and drops keys after it', () => {
    const keys = (orderby: string) =>
      parseListQuery(workUnits, { $orderby: orderby }).orderBy.map((key) => key.ref.name);
    expect(keys('title desc, tenant/name')).toEqual(['title', 'name', 'workUnitId']);
    expect(keys('workUnitId desc, title')).toEqual(['workUnitId']);
    expect(keys('title, title desc')).toEqual(['title', 'workUnitId']);
  });

  test('$select keeps the declared order and always includes the key', () => {
    const parsed = parseListQuery(workUnits, { $select: 'priority, title' });
    expect(parsed.fields.map((field) => field.name)).toEqual(['workUnitId', 'title', 'priority']);
  });

  test('accepts numbers and booleans from a route that validated the query with zod first', () => {
    const parsed = parseListQuery(workUnits, { $top: 5, $skip: 10, $count: true });
    expect([parsed.top, parsed.skip, parsed.count]).toEqual([5, 10, true]);
  });

  test('treats empty options as absent', () => {
    expect(parseListQuery(workUnits, { $filter: '', $orderby: ' ', $select: '', $expand: '' }).filter).toBeUndefined();
  });

  test.each<[Resource, Record<string, unknown>, string]>([
    [workUnits, { $filter: 'foo eq 1' }, "Unknown field 'foo' in $filter"],
    [workUnits, { $filter: 'title eq 5' }, "Field 'title' cannot be compared with a number in $filter"],
    [workUnits, { $filter: "priority eq 'x'" }, "Field 'priority' cannot be compared with a string in $filter"],
    [workUnits, { $filter: 'priority eq 1.5' }, "Field 'priority' takes whole numbers, not 1.5, in $filter"],
    [
      workUnits,
      { $filter: 'priority eq 99999999999999999999' },
      'The number 99999999999999999999 is out of range in $filter',
    ],
    [workUnits, { $filter: 'priority eq true' }, "Field 'priority' cannot be compared with a boolean in $filter"],
    [
      workUnits,
      { $filter: 'priority eq 2024-01-01T00:00:00Z' },
      "Field 'priority' cannot be compared with a date-time in $filter",
    ],
    [workUnits, { $filter: "tenantId eq 'abc'" }, "'abc' is not a valid GUID for field 'tenantId' in $filter"],
    [workUnits, { $filter: 'tenantId eq 5' }, "Field 'tenantId' cannot be compared with a number in $filter"],
    [workUnits, { $filter: 'title eq priority' }, "Field 'title' cannot be compared with field 'priority' in $filter"],
    [workUnits, { $filter: "tenant/foo eq 'x'" }, "Unknown field 'tenant/foo' in $filter"],
    [workUnits, { $filter: "owner/name eq 'x'" }, "Unknown relation 'owner' in $filter"],
    [workUnits, { $filter: 'tenant/enabled eq true' }, "Unknown field 'tenant/enabled' in $filter"],
    [workUnits, { $filter: "notes/name eq 'x'" }, "'notes' is a collection and cannot be used in a path in $filter"],
    [workUnits, { $filter: 'tenant eq null' }, "'tenant' is a relation, not a field, in $filter"],
    [
      workUnits,
      { $filter: 'title' },
      "Expected a condition at position 0 in $filter, but field 'title' is not one; compare it with a value",
    ],
    [workUnits, { $filter: 'priority gt null' }, "'gt null' is not allowed in $filter; use eq null or ne null"],
    [workUnits, { $filter: '1 eq 1' }, 'The comparison at position 2 in $filter needs a field'],
    [workUnits, { $filter: 'length(title) eq 1' }, "Unknown function 'length' in $filter"],
    [
      workUnits,
      { $filter: "contains(priority,'1')" },
      'The first argument of contains must be a text field (position 0 in $filter)',
    ],
    [
      workUnits,
      { $filter: 'contains(title,title)' },
      'The second argument of contains must be a quoted string (position 0 in $filter)',
    ],
    [workUnits, { $filter: 'contains(title)' }, 'contains takes 2 arguments (position 0 in $filter)'],
    [
      workUnits,
      { $filter: "contains(title,'a') eq true" },
      'contains(…) is a condition and cannot be compared (position 0 in $filter)',
    ],
    [workUnits, { $filter: "tolower(priority) eq 'x'" }, 'tolower takes one text field (position 0 in $filter)'],
    [workUnits, { $filter: "priority in ('a')" }, "Field 'priority' cannot be compared with a string in $filter"],
    [workUnits, { $filter: 'constructor eq 1' }, "Unknown field 'constructor' in $filter"],
    [workUnits, { $filter: "__proto__/name eq 'x'" }, "Unknown relation '__proto__' in $filter"],
    [tenants, { $filter: 'settings eq null' }, "Field 'settings' cannot be used in $filter"],
    [tenants, { $orderby: 'settings' }, "Field 'settings' cannot be used in $orderby"],
    [
      workUnits,
      { $orderby: 'title sideways' },
      "Invalid $orderby item 'title sideways': expected 'field', 'field asc' or 'field desc'",
    ],
    [workUnits, { $orderby: 'title,' }, "Invalid $orderby item '': expected 'field', 'field asc' or 'field desc'"],
    [workUnits, { $orderby: 'nope' }, "Unknown field 'nope' in $orderby"],
    [workUnits, { $top: '101' }, '$top must be at most 100'],
    [workUnits, { $top: '-1' }, '$top must be a non-negative integer'],
    [workUnits, { $top: '1.5' }, '$top must be a non-negative integer'],
    [workUnits, { $top: ['1', '2'] }, '$top is given more than once'],
    [workUnits, { $skip: 'x' }, '$skip must be a non-negative integer'],
    [workUnits, { $count: 'yes' }, '$count must be true or false'],
    [workUnits, { $search: 'x' }, "Unknown query option '$search'"],
    [workUnits, { $filter: { nested: true } }, '$filter must be text'],
    [workUnits, { $select: 'title,foo' }, "Unknown field 'foo' in $select"],
    [workUnits, { $select: 'tenant' }, "'tenant' is a relation; use $expand in $select"],
    [workUnits, { $expand: 'owner' }, "Unknown relation 'owner' in $expand"],
    [workUnits, { $expand: '__proto__' }, "Unknown relation '__proto__' in $expand"],
    [workUnits, { $expand: 'title' }, "'title' is a field, not a relation, in $expand"],
    [workUnits, { $expand: 'tenant,' }, 'Expected a relation name at position 7 in $expand, found the end'],
    [workUnits, { $expand: 'tenant;notes' }, "Expected ',' or the end at position 6 in $expand, found ';notes'"],
    [
      workUnits,
      { $expand: 'notes(' },
      'Expected an option such as $select or $filter at position 6 in $expand, found the end',
    ],
    [workUnits, { $expand: 'notes($top=1' }, "Expected ')' at position 12 in $expand, found the end"],
    [workUnits, { $expand: 'notes($bogus=1)' }, "Unknown option '$bogus' for 'notes' in $expand"],
    [
      workUnits,
      { $expand: "tenant($filter=name eq 'x')" },
      "$filter needs a collection, but 'tenant' is a single row, in $expand",
    ],
    [workUnits, { $expand: 'notes($filter=foo eq 1)' }, "Unknown field 'foo' in $filter of $expand 'notes'"],
    [
      workUnits,
      { $expand: 'notes($filter=name eq)' },
      "Expected a field, function or value at position 7 in $filter of $expand 'notes', found the end",
    ],
    [workUnits, { $expand: 'notes($select=nope)' }, "Unknown field 'nope' in $select of $expand 'notes'"],
    [workUnits, { $expand: 'notes($top=1001)' }, "$top of $expand 'notes' must be at most 1000"],
    [workUnits, { $expand: 'notes($top=1;$top=2)' }, "$top is given more than once for 'notes' in $expand"],
    [
      workUnits,
      { $expand: 'tenant/workUnits/tenant/workUnits/tenant/workUnits' },
      '$expand is nested too deeply (at most 5 levels)',
    ],
  ])('rejects %j', (resource, query, message) => {
    let thrown: unknown;
    try {
      parseListQuery(resource, query);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ListQueryError);
    expect(thrown).toMatchObject({ message, statusCode: 400 });
  });

  test('an invalid defaultOrderBy is a server fault, not a 400', () => {
    const broken = defineResource({
      table: 'x',
      key: 'id',
      fields: { id: { type: 'integer' } },
      defaultOrderBy: 'missing',
    });
    expect(() => parseListQuery(broken, {})).toThrow("'x' declares an invalid defaultOrderBy");
    expect(() => parseListQuery(broken, {})).not.toThrow(ListQueryError);
  });

  test('rejects declarations that cannot work', () => {
    expect(() =>
      defineResource({ table: 'x', key: 'id', fields: { id: { type: 'integer' } }, defaultTop: 50, maxTop: 10 }),
    ).toThrow("'x': defaultTop exceeds maxTop");
    expect(() =>
      defineResource({
        table: 'x',
        key: 'id',
        fields: { id: { type: 'integer' } },
        relations: { id: { kind: 'one', resource: () => tenants, column: 'id' } },
      }),
    ).toThrow("Relation 'id' of 'x' has the name of a field");
  });
});

describe('buildListSql', () => {
  const compile = (resource: Resource, query: Record<string, string>) => {
    const base = db.selectFrom(resource === tenants ? 'tenant' : 'work_unit').selectAll();
    const statements = buildListSql(base, parseListQuery(resource, query), ALL_TENANTS);
    return { rows: statements.rows.compile(db), count: statements.count.compile(db) };
  };

  test('binds every value as a parameter', () => {
    const hostile = "x'; DROP TABLE tenant; --";
    const { rows } = compile(workUnits, {
      $filter: `title eq '${hostile.replaceAll("'", "''")}' and priority in (1, 2) and contains(title,'50%_\\')`,
    });
    expect(rows.sql).not.toContain('DROP');
    expect(rows.sql).toContain(
      '"t0"."title" = $1 AND "t0"."priority" IN ($2::int8, $3::int8) AND "t0"."title" ILIKE $4',
    );
    expect(rows.parameters).toEqual([hostile, 1, 2, '%50\\%\\_\\\\%', 25, 0]);
  });

  test('takes a boolean literal as a whole condition ($filter=false matches nothing)', () => {
    expect(compile(workUnits, { $filter: 'false' }).rows.sql).toContain('WHERE false');
    expect(compile(workUnits, { $filter: "true and title eq 'x'" }).rows.sql).toContain(
      'WHERE (true AND "t0"."title" = $1)',
    );
  });

  test('counts over the filter only, at most one row past the cap: no ordering, paging, expansions or joins (a related field is read as the related keys)', () => {
    const { rows, count } = compile(workUnits, {
      $filter: "tenant/name eq 'Contoso'",
      $orderby: 'tenant/name desc',
      $expand: 'tenant',
      $count: 'true',
    });
    expect(count.sql).toBe(
      'SELECT count(*) AS "count" FROM (SELECT 1 FROM (select * from "work_unit") AS "t0" WHERE ("t0"."tenant_id" = ANY($1) OR ($2::boolean AND EXISTS (SELECT 1 FROM "tenant" AS "r1" WHERE "r1"."tenant_id" = "t0"."tenant_id" AND "r1"."name" = $3))) LIMIT 10001) AS "c"',
    );
    expect(rows.sql).toContain('ORDER BY "j2"."name" DESC, "t0"."work_unit_id" DESC LIMIT $4 OFFSET $5');

    const sortOnly = compile(workUnits, { $orderby: 'tenant/name', $count: 'true' });
    expect(sortOnly.count.sql).toBe(
      'SELECT count(*) AS "count" FROM (SELECT 1 FROM (select * from "work_unit") AS "t0" LIMIT 10001) AS "c"',
    );
    expect(sortOnly.rows.sql).toContain('LEFT JOIN "tenant" AS "j1"');
  });

  test('uses OData null semantics: ne keeps missing values, not keeps what compared false or null', () => {
    const { rows } = compile(workUnits, { $filter: 'priority ne 1 and not (priority eq 2) and priority eq null' });
    expect(rows.sql).toContain(
      'WHERE ("t0"."priority" IS DISTINCT FROM $1::int8 AND ("t0"."priority" = $2::int8) IS NOT TRUE AND "t0"."priority" IS NULL)',
    );
  });

  test('reads a computed field through its SQL', () => {
    const { rows } = compile(workUnits, { $filter: "label eq 'a #1'", $select: 'label' });
    expect(rows.sql).toContain(`'label', ("r0"."title" || ' #' || "r0"."work_unit_id")`);
    expect(rows.sql).toContain(`WHERE ("t0"."title" || ' #' || "t0"."work_unit_id") = $1`);
  });
});

describe('parseExportColumns', () => {
  const columnsOf = (query: Record<string, string>) =>
    parseExportColumns(parseListQuery(workUnits, query), query).map((column) => column.title);

  test('without columns, writes the selected fields, then each expanded to-one relation’s fields under their paths', () => {
    expect(columnsOf({ $select: 'title,priority', $expand: 'tenant' })).toEqual([
      'workUnitId',
      'title',
      'priority',
      'tenant/tenantId',
      'tenant/name',
    ]);
  });

  test('refuses an expanded collection, which has no single cell', () => {
    expect(() => columnsOf({ $expand: 'notes' })).toThrow(/'notes' is a collection and cannot be a CSV column/);
  });

  test('reads named columns through to-one relations, in the order given; computed and json fields too', () => {
    const query = {
      columns: JSON.stringify([
        { field: 'tenant/name', title: 'Tenant' },
        { field: 'label', title: 'Label' },
        { field: 'title', title: ' Title ' },
      ]),
    };
    const columns = parseExportColumns(parseListQuery(workUnits, query), query);
    expect(columns.map((column) => [column.title, [...column.ref.relations, column.ref.name].join('/')])).toEqual([
      ['Tenant', 'tenant/name'],
      ['Label', 'label'],
      ['Title', 'title'],
    ]);
  });

  test('refuses a collection in a column path', () => {
    const query = { columns: JSON.stringify([{ field: 'notes/name', title: 'Notes' }]) };
    expect(() => parseExportColumns(parseListQuery(workUnits, query), query)).toThrow(ListQueryError);
  });
});
