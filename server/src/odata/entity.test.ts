import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { compileOnly } from '../../test/compile-only.js';
import { defineEntity, fieldTypeOf } from './entity.js';
import { fieldSql } from './resource.js';

const categorySchema = z.object({
  workUnitCategoryId: z.number().int(),
  name: z.string(),
  tenantId: z.uuid(),
  workUnitTypeId: z.number().int(),
  isEnabled: z.boolean(),
  isVisibleInResolutionCenter: z.boolean(),
});
const categoryInputSchema = z.object({
  name: z.string().trim(),
  tenantId: guid(),
  isEnabled: z.boolean().default(true),
});

const compileDb = compileOnly();

const row = {
  work_unit_category_id: 7,
  name: 'Network',
  tenant_id: '8b7e0c4e-7f0e-4a4c-9d7c-2f7a0f1a2b3c',
  work_unit_type_id: 1,
  is_enabled: true,
  is_visible_in_resolution_center: false,
  created: new Date(0),
  created_by: 'seed',
  modified: new Date(0),
  modified_by: 'seed',
};

describe('defineEntity', () => {
  const entity = defineEntity({
    table: 'work_unit_category',
    key: 'workUnitCategoryId',
    contract: categorySchema,
    writable: categoryInputSchema,
    fields: { workUnitTypeId: { labels: { 1: 'Incident' } } },
  });

  test('lists the contract’s fields in its order, typed from the contract, on their snake_case columns', () => {
    expect(entity.resource.fields).toEqual({
      workUnitCategoryId: { type: 'integer', column: 'work_unit_category_id' },
      name: { type: 'string', column: 'name' },
      tenantId: { type: 'guid', column: 'tenant_id' },
      workUnitTypeId: { type: 'integer', column: 'work_unit_type_id', labels: { 1: 'Incident' } },
      isEnabled: { type: 'boolean', column: 'is_enabled' },
      isVisibleInResolutionCenter: { type: 'boolean', column: 'is_visible_in_resolution_center' },
    });
    expect(entity.resource.key).toBe('workUnitCategoryId');
    expect(entity.resource.defaultOrderBy).toBe('workUnitCategoryId');
  });

  test('presents a row as the contract’s item, field by field from the columns the list reads', () => {
    const item = entity.present(row);
    expect(item).toEqual({
      workUnitCategoryId: 7,
      name: 'Network',
      tenantId: row.tenant_id,
      workUnitTypeId: 1,
      isEnabled: true,
      isVisibleInResolutionCenter: false,
    });
    expect(Object.keys(item)).toEqual(Object.keys(categorySchema.shape));
    const compiled = (name: string) => fieldSql(name, entity.resource.fields[name]!, 't').compile(compileDb).sql;
    for (const name of Object.keys(item)) expect(compiled(name)).toBe(`"t"."${entity.resource.fields[name]!.column}"`);
  });

  test('writes each field of the input to its column', () => {
    expect(entity.writeColumns({ name: 'Network', tenantId: row.tenant_id, isEnabled: false })).toEqual({
      name: 'Network',
      tenant_id: row.tenant_id,
      is_enabled: false,
    });
  });

  test('reads a field from the column `columns` names, in the list and in the item', () => {
    const renamed = defineEntity({
      table: 'work_unit_type',
      key: 'id',
      contract: z.object({ id: z.number().int(), name: z.string(), enabled: z.boolean() }),
      columns: { id: 'work_unit_type_id' },
    });
    expect(renamed.resource.fields.id).toEqual({ type: 'integer', column: 'work_unit_type_id' });
    expect(renamed.present({ work_unit_type_id: 3, name: 'Change', enabled: true })).toEqual({
      id: 3,
      name: 'Change',
      enabled: true,
    });
  });

  test('takes a contract field named after a relation as its expansion: no column, not in the item', () => {
    const withTenant = defineEntity({
      table: 'work_unit_category',
      key: 'workUnitCategoryId',
      contract: categorySchema.extend({ tenant: z.object({ name: z.string() }).nullable().optional() }),
      relations: { tenant: { kind: 'one', resource: () => entity.resource, column: 'tenant_id' } },
    });
    expect(Object.keys(withTenant.resource.fields)).toEqual(Object.keys(categorySchema.shape));
    expect(Object.keys(withTenant.resource.relations)).toEqual(['tenant']);
    expect(withTenant.present(row)).toEqual(entity.present(row));
  });

  test('reads a field’s list type from its schema: dates, numbers, enums, codecs, objects', () => {
    const shape = {
      a: z.date().nullable(),
      b: z.number(),
      c: z.enum(['x', 'y']),
      d: z.union([z.literal(1), z.literal(2)]),
      e: guid().optional(),
      f: z.object({ g: z.string() }),
      h: z.string().trim().max(20).nullable().optional(),
      i: z.any(),
    };
    expect(Object.fromEntries(Object.entries(shape).map(([name, schema]) => [name, fieldTypeOf(schema)]))).toEqual({
      a: 'datetime',
      b: 'number',
      c: 'string',
      d: 'integer',
      e: 'guid',
      f: 'json',
      h: 'string',
      i: undefined,
    });
  });

  test('refuses a contract field whose list type it cannot read', () => {
    expect(() =>
      defineEntity({
        table: 'location',
        key: 'locationId',
        contract: z.object({ locationId: z.uuid(), name: z.any() }),
      }),
    ).toThrow(`Field 'name' of 'location': its list type cannot be read from the contract`);
  });

  test('holds the contract and the input to the table’s columns, in the type checker', () => {
    const refused = () => [
      defineEntity({
        table: 'location',
        key: 'locationId',
        // @ts-expect-error the table has no column `no_such_column`
        contract: z.object({ locationId: z.uuid(), noSuchColumn: z.string().nullable() }),
      }),
      defineEntity({
        table: 'location',
        key: 'locationId',
        // @ts-expect-error `name` is text, not a number
        contract: z.object({ locationId: z.uuid(), name: z.number() }),
      }),
      defineEntity({
        table: 'location',
        key: 'locationId',
        contract: z.object({ locationId: z.uuid() }),
        // @ts-expect-error the table has no column `no_such_column` to write
        writable: z.object({ noSuchColumn: z.string() }),
      }),
    ];
    expect(typeof refused).toBe('function');
  });
});
