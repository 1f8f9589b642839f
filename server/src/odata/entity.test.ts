import { sql } from 'kysely';
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

  test('leaves an unlisted field out of the list, not out of the item', () => {
    const partly = defineEntity({
      table: 'work_unit_category',
      key: 'workUnitCategoryId',
      contract: categorySchema,
      unlisted: ['isVisibleInResolutionCenter'],
    });
    expect(Object.keys(partly.resource.fields)).toEqual(Object.keys(categorySchema.shape).slice(0, -1));
    expect(partly.present(row)).toEqual(entity.present(row));
  });

  test('reads a joined field from the column the base statement adds, in the list and in the item', () => {
    const withUsage = defineEntity({
      table: 'work_unit_category',
      key: 'workUnitCategoryId',
      contract: categorySchema.extend({ openWorkUnits: z.number().int() }),
      joined: ['openWorkUnits'],
    });
    expect(withUsage.resource.fields.openWorkUnits).toEqual({ type: 'integer', column: 'open_work_units' });
    expect(withUsage.present({ ...row, open_work_units: 3 })).toEqual({ ...entity.present(row), openWorkUnits: 3 });
    // @ts-expect-error the row must hold the joined field's column
    const withoutIt = () => withUsage.present(row);
    expect(typeof withoutIt).toBe('function');
    expect(() =>
      defineEntity({
        table: 'work_unit_category',
        key: 'workUnitCategoryId',
        contract: categorySchema,
        // @ts-expect-error a joined field is a field of the contract
        joined: ['nothing'],
      }),
    ).toThrow(`'work_unit_category' names as joined unknown field 'nothing'`);
  });

  test('takes the text column of a checked enum field for the contract’s values', () => {
    const statusSchema = z.object({
      workUnitCommunicationId: z.uuid(),
      status: z.enum(['Investigating', 'Resolved']),
    });
    const communication = defineEntity({
      table: 'work_unit_communication',
      key: 'workUnitCommunicationId',
      contract: statusSchema,
      checked: ['status'],
    });
    expect(communication.resource.fields.status).toEqual({ type: 'string', column: 'status' });
    const refused = () =>
      defineEntity({
        table: 'work_unit_communication',
        key: 'workUnitCommunicationId',
        // @ts-expect-error without `checked`, a text column holds more than the enum's values
        contract: statusSchema,
      });
    expect(typeof refused).toBe('function');
  });

  describe('a computed field', () => {
    const protocolRow = {
      protocol_id: 4,
      name: 'Escalate',
      description: null,
      tenant_id: null,
      timer_interval_seconds: 90,
      manual_actions: null,
      created: new Date(0),
      created_by: 'seed',
      modified: new Date(0),
      modified_by: 'seed',
    };
    const protocol = defineEntity({
      table: 'protocol',
      key: 'protocolId',
      contract: z.object({ protocolId: z.number().int(), name: z.string(), timer: z.string() }),
      writable: z.object({ name: z.string(), timer: z.string() }),
      computed: {
        timer: {
          sql: (col) => sql`${col('timer_interval_seconds')} || 's'`,
          value: (row) => `${row.timer_interval_seconds}s`,
          write: (value) => ({ timer_interval_seconds: Number.parseInt(value, 10) }),
        },
      },
      fields: { timer: { filterable: false } },
    });

    test('is listed by its SQL over the row’s columns, in the contract’s place, with its list options', () => {
      expect(Object.keys(protocol.resource.fields)).toEqual(['protocolId', 'name', 'timer']);
      const { sql: timerSql, ...options } = protocol.resource.fields.timer!;
      expect(options).toEqual({ type: 'string', filterable: false });
      expect(typeof timerSql).toBe('function');
      expect(fieldSql('timer', protocol.resource.fields.timer!, 't').compile(compileDb).sql).toBe(
        `("t"."timer_interval_seconds" || 's')`,
      );
    });

    test('is presented by its value from the row', () => {
      expect(protocol.present(protocolRow)).toEqual({ protocolId: 4, name: 'Escalate', timer: '90s' });
    });

    test('writes the columns its write answers for the input’s value', () => {
      const columns: { name: string; timer_interval_seconds?: number } = protocol.writeColumns({
        name: 'Escalate',
        timer: '90s',
      });
      expect(columns).toEqual({
        name: 'Escalate',
        timer_interval_seconds: 90,
      });
    });

    test('is refused for a field the contract does not have, or one with a column of its own', () => {
      const computed = { sql: () => sql`1`, value: () => 1 };
      expect(() =>
        defineEntity({
          table: 'protocol',
          key: 'protocolId',
          contract: z.object({ protocolId: z.number().int() }),
          // @ts-expect-error the contract has no field `nothing`
          computed: { nothing: computed },
        }),
      ).toThrow(`'protocol' names as computed unknown field 'nothing'`);
      expect(() =>
        defineEntity({
          table: 'protocol',
          key: 'protocolId',
          contract: z.object({ protocolId: z.number().int() }),
          columns: { protocolId: 'protocol_id' },
          computed: { protocolId: computed },
        }),
      ).toThrow(`'protocol': computed field 'protocolId' cannot name a column`);
    });
  });

  test('reads a field’s list type from its schema: dates (and ISO 8601 instants), numbers, enums, codecs, objects', () => {
    const shape = {
      a: z.date().nullable(),
      b: z.number(),
      c: z.enum(['x', 'y']),
      d: z.union([z.literal(1), z.literal(2)]),
      e: guid().optional(),
      f: z.object({ g: z.string() }),
      h: z.string().trim().max(20).nullable().optional(),
      i: z.any(),
      j: z.iso.datetime({ offset: true }).nullable(),
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
      j: 'datetime',
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
      defineEntity({
        table: 'protocol',
        key: 'protocolId',
        contract: z.object({ protocolId: z.number().int(), timer: z.string() }),
        // @ts-expect-error a computed field's value is of its contract field's type
        computed: { timer: { sql: () => sql`1`, value: (row) => row.timer_interval_seconds } },
      }),
      defineEntity({
        table: 'protocol',
        key: 'protocolId',
        contract: z.object({ protocolId: z.number().int(), timer: z.string() }),
        writable: z.object({ timer: z.string() }),
        // @ts-expect-error a computed field of the input writes its columns
        computed: { timer: { sql: () => sql`1`, value: () => '' } },
      }),
      defineEntity({
        table: 'protocol',
        key: 'protocolId',
        contract: z.object({ protocolId: z.number().int(), timer: z.string() }),
        writable: z.object({ timer: z.string() }),
        computed: {
          timer: {
            sql: () => sql`1`,
            value: () => '',
            // @ts-expect-error the table has no column `no_such_column` to write
            write: () => ({ no_such_column: 1 }),
          },
        },
      }),
      defineEntity({
        table: 'protocol',
        key: 'protocolId',
        contract: z.object({ protocolId: z.number().int(), name: z.string() }),
        // @ts-expect-error an unlisted field is a field of the contract
        unlisted: ['nothing'],
      }),
    ];
    expect(typeof refused).toBe('function');
  });
});
