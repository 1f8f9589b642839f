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
export type ColumnOf<K, C extends ColumnMap> = K extends keyof C ? C[K] : K extends string ? SnakeCase<K> : never;

type Row<T extends keyof Database> = Selectable<Database[T]>;
type Fields<S extends z.ZodObject> = z.output<S>;
type Relations = Readonly<Record<string, RelationDef>>;
/** The item's fields: a contract field named after a relation is that relation's expansion, not the item's. */
type Item<S extends z.ZodObject, R extends Relations> = Omit<Fields<S>, keyof R>;
/** The item's fields that are columns: all but the computed ones (`XK`). */
type ColumnFields<S extends z.ZodObject, R extends Relations, XK extends PropertyKey> = Omit<Item<S, R>, XK>;
/** The input's fields that are written to their column: all but the computed ones, which write their own. */
type WrittenFields<W extends z.ZodObject, XK extends PropertyKey> = Omit<z.output<W>, XK>;

/**
 * The type a field's column must have: the field's own, or for a field of `EK` (a text column that
 * its migration's CHECK constraint holds to the contract's values) text where the field is.
 */
type ColumnType<Field, IsChecked extends boolean> = IsChecked extends true ? Widened<Field> : Field;
type Widened<Field> = Field extends string ? string : Field;

/** The columns a base statement adds for the joined fields (`JK`), each of its field's type. */
type JoinedRow<S extends z.ZodObject, R extends Relations, C extends ColumnMap, JK extends PropertyKey> = {
  readonly [K in keyof Item<S, R> & JK as ColumnOf<K, C>]: Item<S, R>[K];
};

/** Fields of the contract whose column is missing from the table or holds another type than the contract says. */
type RowMismatch<
  T extends keyof Database,
  S extends z.ZodObject,
  C extends ColumnMap,
  R extends Relations,
  XK extends PropertyKey,
  EK extends PropertyKey,
> = {
  [K in keyof ColumnFields<S, R, XK>]-?: ColumnOf<K, C> extends keyof Row<T>
    ? Row<T>[ColumnOf<K, C>] extends ColumnType<ColumnFields<S, R, XK>[K], K extends EK ? true : false>
      ? never
      : K
    : K;
}[keyof ColumnFields<S, R, XK>];

/** Fields of the input whose column is missing from the table or cannot take the input's value. */
type WriteMismatch<T extends keyof Database, W extends z.ZodObject, C extends ColumnMap, XK extends PropertyKey> = {
  [K in keyof WrittenFields<W, XK>]-?: ColumnOf<K, C> extends keyof Insertable<Database[T]>
    ? WrittenFields<W, XK>[K] extends Insertable<Database[T]>[ColumnOf<K, C>]
      ? never
      : K
    : K;
}[keyof WrittenFields<W, XK>];

/** A type error that names the fields at fault, instead of accepting a contract the table cannot answer. */
type Checked<Mismatch> = [Mismatch] extends [never]
  ? unknown
  : { readonly 'these fields have no column of their type': Mismatch };

/** The columns of the table that the computed fields' `write` write: `P` of them, of the table's types. */
type WrittenColumns<T extends keyof Database, P extends keyof Insertable<Database[T]>> = Pick<
  Insertable<Database[T]>,
  P
>;

/**
 * The columns an input writes: each field of the input that is not computed under its column's
 * name, and the columns its computed fields write (`P`, what their `write` answer).
 */
export type WriteColumns<
  T extends keyof Database,
  W extends z.ZodObject,
  C extends ColumnMap,
  XK extends PropertyKey,
  P extends keyof Insertable<Database[T]>,
> = {
  -readonly [K in keyof WrittenFields<W, XK> as ColumnOf<K, C>]: WrittenFields<W, XK>[K];
} & WrittenColumns<T, P>;

/**
 * A contract field that is no column of its own but a value computed from the row's columns, e.g.
 * a timer stored in seconds that the API shows as HH:mm:ss. The list computes it in SQL, the item
 * in `value`: the two must give the same value (a list row and an item cannot disagree), and the
 * entity's test and the area's list test hold them to that. A field the input has too is written by
 * `write`, into the columns it is computed from.
 */
type ComputedField<Value, TableRow, Input, Columns> = {
  /** The list's SQL over the row's columns (`FieldDef.sql`); its type is the contract's. */
  readonly sql: NonNullable<FieldDef['sql']>;
  /** The item's value of the field, from the row. */
  readonly value: (row: TableRow) => Value;
} & ([Input] extends [never]
  ? { readonly write?: never }
  : {
      /** The columns the input's value writes. */
      readonly write: (value: Input) => Columns;
    });

/** The computed fields (`XK`), each typed by its contract field, its input field and the table. */
type ComputedFields<
  T extends keyof Database,
  S extends z.ZodObject,
  W extends z.ZodObject,
  XK extends PropertyKey,
  P extends keyof Insertable<Database[T]>,
> = {
  readonly [K in XK]: ComputedField<
    K extends keyof Fields<S> ? Fields<S>[K] : never,
    Row<T>,
    K extends keyof z.output<W> ? z.output<W>[K] : never,
    // Each its own columns: together they are P.
    Partial<WrittenColumns<T, P>>
  >;
};

/** A computed field as `defineEntity` runs it. */
interface RuntimeComputed {
  readonly sql: NonNullable<FieldDef['sql']>;
  readonly value: (row: Record<string, unknown>) => unknown;
  readonly write?: (value: unknown) => Readonly<Record<string, unknown>>;
}

export interface EntityDeclaration<
  T extends keyof Database,
  S extends z.ZodObject,
  C extends ColumnMap,
  W extends z.ZodObject,
  R extends Relations,
  XK extends PropertyKey,
  P extends keyof Insertable<Database[T]>,
  EK extends PropertyKey,
  JK extends PropertyKey,
> extends Omit<ResourceDeclaration<Record<string, FieldDef>>, 'table' | 'key' | 'fields'> {
  readonly table: T;
  readonly key: keyof Fields<S> & string;
  /** The contract's schema of one item: its fields, in order, are the list's fields and the item's shape. */
  readonly contract: S & NoInfer<Checked<RowMismatch<T, S, C, R, XK | JK, EK>>>;
  /** Only the fields whose column is not their name in snake_case. */
  readonly columns?: C & { readonly [K in keyof C]: K extends keyof Fields<S> ? keyof Row<T> & string : never };
  /** What the list needs beyond the contract's type: an enum's `labels`, a date-only `type: 'date'`, no filtering. */
  readonly fields?: { readonly [K in keyof Fields<S>]?: Partial<Omit<FieldDef, 'column' | 'sql'>> };
  /** A contract field of a relation's name is its `$expand`: no column, and not in the item. */
  readonly relations?: R;
  /** The contract's fields computed from other columns: their list SQL, item value and write (ComputedField). */
  readonly computed?: ComputedFields<T, S, W, XK, P>;
  /**
   * Enum fields whose column is text that a CHECK constraint of the migration holds to the
   * contract's values: the type checker takes the column's text for the field's values.
   */
  readonly checked?: readonly EK[];
  /**
   * Fields that the list's base statement adds to the table's row (`registerListRoutes`' `base`),
   * under their column's name, e.g. a device's latest packet: the list reads them from the base's
   * row, and `present` from the row it is given, which must hold them.
   */
  readonly joined?: readonly JK[];
  /** Fields of the item that the list does not show (neither in its rows nor to $filter, $orderby or $select). */
  readonly unlisted?: readonly NoInfer<keyof Item<S, R> & string>[];
  /** The contract's input schema: every field of it is written to its column (`writeColumns`). */
  readonly writable?: W & NoInfer<Checked<WriteMismatch<T, W, C, XK>>>;
}

/** One entity, described once: its list resource, its item shape and its write mapping (defineEntity). */
export interface Entity<
  T extends keyof Database,
  S extends z.ZodObject,
  C extends ColumnMap,
  W extends z.ZodObject,
  R extends Relations,
  XK extends PropertyKey,
  P extends keyof Insertable<Database[T]>,
  JK extends PropertyKey = never,
> {
  readonly table: T;
  readonly contract: S;
  /** The list endpoint's resource: the contract's fields on their columns. */
  readonly resource: Resource;
  /** A row of the table (with the joined fields' columns) as the contract's item: the field → column map the list's SQL reads. */
  present(row: Row<T> & JoinedRow<S, R, C, JK>): Item<S, R>;
  /** An input as the columns it writes. */
  writeColumns(input: z.output<W>): WriteColumns<T, W, C, XK, P>;
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
  if (inner instanceof z.ZodStringFormat) {
    if (inner.format === 'uuid' || inner.format === 'guid') return 'guid';
    // An instant the API writes as ISO 8601 text: compared and filtered as one.
    return inner.format === 'datetime' ? 'datetime' : 'string';
  }
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
 * A field that is not one column of its type is `computed`: its list SQL, its item value and, when
 * the input has it, the columns it writes are declared together (ComputedField), each typed by the
 * field, the table and the input. A field of the item the list leaves out is `unlisted`; an enum
 * field whose text column a CHECK constraint holds to the contract's values is `checked`; a field
 * that the list's base statement adds to the row (a joined table's value) is `joined`.
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
 *
 *   // A timer stored in seconds that the API shows and takes as HH:mm:ss:
 *   computed: {
 *     timerInverval: {
 *       sql: (col) => timeSpanSql(col('timer_interval_seconds')),
 *       value: (row) => formatInterval(row.timer_interval_seconds),
 *       write: (value) => ({ timer_interval_seconds: intervalSeconds(value) ?? 30 }),
 *     },
 *   },
 */
export function defineEntity<
  const T extends keyof Database,
  S extends z.ZodObject,
  const C extends ColumnMap = Record<never, never>,
  W extends z.ZodObject = z.ZodObject<Record<never, never>>,
  const R extends Relations = Record<never, never>,
  const XK extends keyof Item<S, R> & string = never,
  const P extends keyof Insertable<Database[T]> = never,
  const EK extends keyof Item<S, R> & string = never,
  const JK extends keyof Item<S, R> & string = never,
>(declaration: EntityDeclaration<T, S, C, W, R, XK, P, EK, JK>): Entity<T, S, C, W, R, XK, P, JK> {
  const {
    table,
    key,
    contract,
    columns = {},
    fields: overrides = {},
    computed = {},
    unlisted = [],
    checked = [],
    joined = [],
    writable,
    ...list
  } = declaration;
  const named = columns as ColumnMap;
  // What each computed field does, whatever its field's type: its types are checked where it is declared.
  const derived = computed as Readonly<Record<string, RuntimeComputed>>;
  const columnOf = (field: string) => (Object.hasOwn(named, field) ? named[field]! : snakeCase(field));
  const isRelation = (field: string) => list.relations !== undefined && Object.hasOwn(list.relations, field);
  for (const [what, names] of [
    ['the column of', Object.keys(named)],
    ['as computed', Object.keys(derived)],
    ['as unlisted', unlisted],
    ['as checked', checked],
    ['as joined', joined],
  ] as const) {
    for (const field of names) {
      if (!Object.hasOwn(contract.shape, field) || isRelation(field))
        throw new Error(`'${table}' names ${what} unknown field '${field}'`);
    }
  }
  for (const field of Object.keys(derived)) {
    if (Object.hasOwn(named, field)) throw new Error(`'${table}': computed field '${field}' cannot name a column`);
  }
  const written = writable ? Object.keys(writable.shape) : [];
  for (const field of written) {
    if (Object.hasOwn(derived, field) && !derived[field]!.write)
      throw new Error(`'${table}': computed field '${field}' of the input has no write`);
  }

  const hidden: readonly string[] = unlisted;
  const fields: Record<string, FieldDef> = {};
  const read: (readonly [string, (row: Record<string, unknown>) => unknown])[] = [];
  for (const [name, schema] of Object.entries(contract.shape)) {
    if (isRelation(name)) continue;
    const field = Object.hasOwn(derived, name) ? derived[name] : undefined;
    const column = columnOf(name);
    read.push([name, field ? field.value : (row) => row[column]]);
    if (hidden.includes(name)) continue;
    const override: Partial<FieldDef> = (overrides as Record<string, Partial<FieldDef> | undefined>)[name] ?? {};
    const type = override.type ?? fieldTypeOf(schema as z.ZodType);
    if (!type) throw new Error(`Field '${name}' of '${table}': its list type cannot be read from the contract`);
    fields[name] = field ? { ...override, type, sql: field.sql } : { ...override, type, column };
  }
  const resource = defineResource({ ...list, table, key, fields });

  return {
    table,
    contract,
    resource,
    present: (row) => {
      const source: Record<string, unknown> = row;
      // The contract's type holds: each column's type is checked against its field's (RowMismatch),
      // each computed field's value by its declaration (ComputedField).
      return Object.fromEntries(read.map(([name, value]) => [name, value(source)])) as Item<S, R>;
    },
    writeColumns: (input) => {
      const source: Record<string, unknown> = input;
      const values: Record<string, unknown> = {};
      for (const name of written) {
        const write = Object.hasOwn(derived, name) ? derived[name]!.write : undefined;
        if (write) Object.assign(values, write(source[name]));
        else values[columnOf(name)] = source[name];
      }
      return values as WriteColumns<T, W, C, XK, P>;
    },
  };
}
