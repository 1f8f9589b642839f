import type { Insertable, Selectable } from 'kysely';
import { z } from 'zod';
import type { DB as Database } from '../db/schema.js';
import {
  defineResource,
  snakeCase,
  type FieldDef,
  type FieldType,
  type RelationDef,
  type Resource,
  type ResourceDeclaration,
} from './resource.js';

/** `postalCode` → `postal_code`, as the type checker spells it (the same rule as `snakeCase`). */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

type ColumnMap = Readonly<Record<string, string>>;

/** The column of a field: named in `columns`, or the field's name in snake_case. */
type ColumnOf<K, C extends ColumnMap> = K extends keyof C ? C[K] : K extends string ? SnakeCase<K> : never;

type Row<T extends keyof Database> = Selectable<Database[T]>;
type Fields<S extends z.ZodObject> = z.output<S>;
type Relations = Readonly<Record<string, RelationDef>>;
/** The contract's fields that are columns: a field named after a relation is that relation's expansion. */
type ColumnFields<S extends z.ZodObject, R extends Relations> = Omit<Fields<S>, keyof R>;

/** Fields of the contract whose column is missing from the table or holds another type than the contract says. */
type RowMismatch<T extends keyof Database, S extends z.ZodObject, C extends ColumnMap, R extends Relations> = {
  [K in keyof ColumnFields<S, R>]-?: ColumnOf<K, C> extends keyof Row<T>
    ? Row<T>[ColumnOf<K, C>] extends ColumnFields<S, R>[K]
      ? never
      : K
    : K;
}[keyof ColumnFields<S, R>];

/** Fields of the input whose column is missing from the table or cannot take the input's value. */
type WriteMismatch<T extends keyof Database, W extends z.ZodObject, C extends ColumnMap> = {
  [K in keyof z.output<W>]-?: ColumnOf<K, C> extends keyof Insertable<Database[T]>
    ? z.output<W>[K] extends Insertable<Database[T]>[ColumnOf<K, C>]
      ? never
      : K
    : K;
}[keyof z.output<W>];

/** A type error that names the fields at fault, instead of accepting a contract the table cannot answer. */
type Checked<Mismatch> = [Mismatch] extends [never]
  ? unknown
  : { readonly 'these fields have no column of their type': Mismatch };

/** The columns an input writes: each field of the input under its column's name. */
export type WriteColumns<W extends z.ZodObject, C extends ColumnMap> = {
  -readonly [K in keyof z.output<W> as ColumnOf<K, C>]: z.output<W>[K];
};

export interface EntityDeclaration<
  T extends keyof Database,
  S extends z.ZodObject,
  C extends ColumnMap,
  W extends z.ZodObject,
  R extends Relations,
> extends Omit<ResourceDeclaration<Record<string, FieldDef>>, 'table' | 'key' | 'fields'> {
  readonly table: T;
  readonly key: keyof Fields<S> & string;
  /** The contract's schema of one item: its fields, in order, are the list's fields and the item's shape. */
  readonly contract: S & NoInfer<Checked<RowMismatch<T, S, C, R>>>;
  /** Only the fields whose column is not their name in snake_case. */
  readonly columns?: C & { readonly [K in keyof C]: K extends keyof Fields<S> ? keyof Row<T> & string : never };
  /** What the list needs beyond the contract's type: an enum's `labels`, a date-only `type: 'date'`, no filtering. */
  readonly fields?: { readonly [K in keyof Fields<S>]?: Partial<Omit<FieldDef, 'column' | 'sql'>> };
  /** A contract field of a relation's name is its `$expand`: no column, and not in the item. */
  readonly relations?: R;
  /** The contract's input schema: every field of it is written to its column (`writeColumns`). */
  readonly writable?: W & NoInfer<Checked<WriteMismatch<T, W, C>>>;
}

/** One entity, described once: its list resource, its item shape and its write mapping (defineEntity). */
export interface Entity<
  T extends keyof Database,
  S extends z.ZodObject,
  C extends ColumnMap,
  W extends z.ZodObject,
  R extends Relations,
> {
  readonly table: T;
  readonly contract: S;
  /** The list endpoint's resource: the contract's fields on their columns. */
  readonly resource: Resource;
  /** A row of the table as the contract's item: the same field → column map the list's SQL reads. */
  present(row: Row<T>): ColumnFields<S, R>;
  /** An input as the columns it writes. */
  writeColumns(input: z.output<W>): WriteColumns<W, C>;
}

/** The innermost schema of a field: what optional, nullable, default and codecs wrap. */
function innerSchema(schema: z.ZodType): z.ZodType {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodReadonly
  )
    return innerSchema(schema.unwrap() as z.ZodType);
  // A codec or a pipe: what comes out, unless that is a function of what went in.
  if (schema instanceof z.ZodPipe)
    return innerSchema((schema.out instanceof z.ZodTransform ? schema.in : schema.out) as z.ZodType);
  return schema;
}

const valueType = (values: readonly unknown[]): FieldType | undefined => {
  if (values.every((value) => typeof value === 'string')) return 'string';
  if (values.every((value) => typeof value === 'number' && Number.isInteger(value))) return 'integer';
  return undefined;
};

/** The list type of a contract field: uuid → guid, date → datetime, int → integer, enum by its values, objects json. */
export function fieldTypeOf(schema: z.ZodType): FieldType | undefined {
  const inner = innerSchema(schema);
  if (inner instanceof z.ZodStringFormat) return inner.format === 'uuid' || inner.format === 'guid' ? 'guid' : 'string';
  if (inner instanceof z.ZodString) return 'string';
  if (inner instanceof z.ZodNumber) return inner.isInt ? 'integer' : 'number';
  if (inner instanceof z.ZodBoolean) return 'boolean';
  if (inner instanceof z.ZodDate) return 'datetime';
  if (inner instanceof z.ZodEnum) return valueType(inner.options);
  if (inner instanceof z.ZodLiteral) return valueType([...inner.values]);
  if (inner instanceof z.ZodUnion) {
    const types = new Set(inner.options.map((option) => fieldTypeOf(option as z.ZodType)));
    const [only] = types;
    return types.size === 1 ? only : undefined;
  }
  if (inner instanceof z.ZodObject || inner instanceof z.ZodArray || inner instanceof z.ZodRecord) return 'json';
  return undefined;
}

/**
 * One declaration per entity, on its contract: the list resource's fields (names, order and types
 * from the contract's schema), the item presenter and the input's columns are derived from it, all
 * through one field → column map, so a list row and a single item cannot disagree. A column is the
 * field's name in snake_case unless `columns` names it. The type checker holds the contract to the
 * table (`src/db/schema.ts`): a field without a column of its type, in the contract or the input, is
 * an error naming it. Adding a plain field is the migration, the contract and the form.
 *
 * @example
 *   export const locationEntity = defineEntity({
 *     table: 'location',
 *     key: 'locationId',
 *     contract: locationSchema,
 *     writable: locationInputSchema,
 *     relations: { tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id' } },
 *     defaultOrderBy: 'name asc',
 *   });
 *   registerListRoutes(app, db, { resource: locationEntity.resource, row: locationEntity.contract, … });
 *   return locationEntity.present(await tx.insertInto('location', locationEntity.writeColumns(input))…);
 */
export function defineEntity<
  const T extends keyof Database,
  S extends z.ZodObject,
  const C extends ColumnMap = Record<never, never>,
  W extends z.ZodObject = z.ZodObject<Record<never, never>>,
  const R extends Relations = Record<never, never>,
>(declaration: EntityDeclaration<T, S, C, W, R>): Entity<T, S, C, W, R> {
  const { table, key, contract, columns = {}, fields: overrides = {}, writable, ...list } = declaration;
  const named = columns as ColumnMap;
  const columnOf = (field: string) => (Object.hasOwn(named, field) ? named[field]! : snakeCase(field));
  for (const field of Object.keys(named)) {
    if (!Object.hasOwn(contract.shape, field))
      throw new Error(`'${table}' names the column of unknown field '${field}'`);
  }

  const fields: Record<string, FieldDef> = {};
  for (const [name, schema] of Object.entries(contract.shape)) {
    if (list.relations && Object.hasOwn(list.relations, name)) continue;
    const override: Partial<FieldDef> = (overrides as Record<string, Partial<FieldDef> | undefined>)[name] ?? {};
    const type = override.type ?? fieldTypeOf(schema as z.ZodType);
    if (!type) throw new Error(`Field '${name}' of '${table}': its list type cannot be read from the contract`);
    fields[name] = { ...override, type, column: columnOf(name) };
  }
  const resource = defineResource({ ...list, table, key, fields });
  const read = Object.entries(fields).map(([name, field]) => [name, field.column!] as const);
  const written = writable ? Object.keys(writable.shape).map((name) => [name, columnOf(name)] as const) : [];

  return {
    table,
    contract,
    resource,
    present: (row) => {
      const source: Record<string, unknown> = row;
      // The contract's type holds: each column's type is checked against its field's (RowMismatch).
      return Object.fromEntries(read.map(([name, column]) => [name, source[column]])) as ColumnFields<S, R>;
    },
    writeColumns: (input) => {
      const source: Record<string, unknown> = input;
      return Object.fromEntries(written.map(([name, column]) => [column, source[name]])) as WriteColumns<W, C>;
    },
  };
}
