import { describe, expect, test } from 'vitest';
import { workUnitsResource } from '../src/areas/workunits/resource.js';
import { subcategoryEntity } from '../src/areas/workunitcategories/resources.js';
import type { TenantScope } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import type { DB } from '../src/db/schema.js';
import { parseListQuery } from '../src/odata/list-query.js';
import { buildListSql } from '../src/odata/list-query-sql.js';
import { matchesIfNoneMatch } from '../src/http/list-etag.js';
import { tablesOf } from '../src/odata/list-query-sql.js';
import { compileOnly } from './compile-only.js';

const db = compileOnly<DB>();
const oneTenant: TenantScope = { kind: 'some', tenantIds: ['6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b'] };

describe('tablesOf', () => {
  test('names the tables a list reads through $expand and field paths, not the aliases its conditions qualify columns with', () => {
    const base = scoped(db, oneTenant).selectFrom('work_unit').selectAll();
    const parsed = parseListQuery(workUnitsResource, {
      $expand: 'tenant',
      $filter: "category/name eq 'Network'",
      $orderby: 'workUnitType/name asc',
    });
    const { rows } = buildListSql(base, parsed, oneTenant);
    expect(tablesOf(rows.toOperationNode())).toEqual(['tenant', 'work_unit', 'work_unit_category', 'work_unit_type']);
  });

  test('names the tables a route’s base query reads in a subquery', () => {
    const base = db
      .selectFrom('work_unit_subcategory')
      .selectAll()
      .where(
        'work_unit_category_id',
        'in',
        scoped(db, oneTenant).selectFrom('work_unit_category').select('work_unit_category_id'),
      );
    const { count } = buildListSql(base, parseListQuery(subcategoryEntity.resource, {}), oneTenant);
    expect(tablesOf(count.toOperationNode())).toEqual(['work_unit_category', 'work_unit_subcategory']);
  });
});

describe('matchesIfNoneMatch', () => {
  test('compares weakly and finds the tag in a list', () => {
    expect(matchesIfNoneMatch('W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"abc"', 'W/"abc"')).toBe(true);
    expect(matchesIfNoneMatch('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesIfNoneMatch('W/"abcd"', 'W/"abc"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, 'W/"abc"')).toBe(false);
  });
});
