import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@cfs/contracts/constants';
import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'guid' | 'datetime' | 'date' | 'json';

export interface FieldDef {
  readonly type: FieldType;
  /** Column of the resource's table; defaults to the API name in snake_case (`tenantId` → `tenant_id`). */
  readonly column?: string;
  /** A computed field: SQL over the row's columns, e.g. `(col) => sql\`${col('first')} || ' ' || ${col('last')}\``. */
  readonly sql?: (col: (column: string) => RawBuilder<unknown>) => RawBuilder<unknown>;
  /** Both default to true, except for json fields, which can be neither filtered nor sorted. */
  readonly filterable?: boolean;
  readonly sortable?: boolean;
  /** An enum's display texts by value (`STATE_LABELS`): a CSV export writes these, not the numbers. */
  readonly labels?: Readonly<Record<string | number, string>>;
}

export interface RelationDef {
  readonly kind: 'one' | 'many';
  /** The related resource; a function so that resources can point at each other. */
  readonly resource: () => Resource;
  /** Column of this resource's table that links to the related table. */
  readonly column: string;
  /** Column of the related table it equals; defaults to `column`. */
  readonly relatedColumn?: string;
  /**
   * Columns of the related table held to these values: which one of several related rows the
   * relation is (`{ kind: 'response' }`: a work unit's response clock of its two).
   */
  readonly relatedWhere?: Readonly<Record<string, string>>;
  /** Many-to-many (kind 'many' only): this.column = link.column and link.relatedColumn = related.relatedColumn. */
  readonly through?: { readonly table: string; readonly column: string; readonly relatedColumn: string };
  /** The related fields this relation exposes to $filter, $orderby and $expand; all of them by default. */
  readonly fields?: readonly string[];
}

/**
 * What a list endpoint exposes: API field names (camelCase) mapped to columns, their types, what
 * may be filtered and sorted, the key, paging defaults and the relations $expand and paths may use.
 *
 * @example
 *   export const tenantsResource = defineResource({
 *     table: 'tenant',
 *     key: 'tenantId',
 *     fields: {
 *       tenantId: { type: 'guid' },
 *       name: { type: 'string' },
 *       enabled: { type: 'boolean' },
 *       created: { type: 'datetime' },
 *     },
 *     relations: {
 *       subscriptions: { kind: 'many', resource: () => subscriptionsResource, column: 'tenant_id' },
 *     },
 *     defaultOrderBy: 'name asc',
 *   });
 */
export interface Resource {
  /** The table rows come from; related resources are read from it directly. */
  readonly table: string;
  readonly key: string;
  readonly fields: Readonly<Record<string, FieldDef>>;
  readonly relations: Readonly<Record<string, RelationDef>>;
  /** `$orderby` syntax; the key is always appended as the last tie-breaker. Default: the key. */
  readonly defaultOrderBy: string;
  readonly defaultTop: number;
  readonly maxTop: number;
  readonly searchFields: readonly string[];
}

export interface ResourceDeclaration<F extends Record<string, FieldDef>> {
  readonly table: string;
  readonly key: keyof F & string;
  readonly fields: F;
  readonly relations?: Readonly<Record<string, RelationDef>>;
  readonly defaultOrderBy?: string;
  /** $top when the request has none; default DEFAULT_PAGE_SIZE. */
  readonly defaultTop?: number;
  /** The largest $top accepted; default MAX_PAGE_SIZE. */
  readonly maxTop?: number;
  /**
   * Text fields of the resource's own table whose `contains`, `startswith` and `endswith` a trigram
   * index serves: an index on exactly `searchTextSql` of the table (pg_trgm's `gin_trgm_ops`), made by
   * the migration that names them here. A match on one of them is narrowed through that index —
   * `searchText LIKE lower('%term%')` — and the match itself then checks each row found, so a term
   * that spans two fields' boundary never counts. A term without three letters or digits in a row
   * holds no trigram: its rows are read, and that one LIKE rules most of them out cheaply.
   */
  readonly searchFields?: readonly string[];
}

export function defineResource<const F extends Record<string, FieldDef>>(
  declaration: ResourceDeclaration<F>,
): Resource {
  const relations = declaration.relations ?? {};
  for (const [name, relation] of Object.entries(relations)) {
    if (name in declaration.fields)
      throw new Error(`Relation '${name}' of '${declaration.table}' has the name of a field`);
    if (relation.through && relation.kind === 'one') throw new Error(`Relation '${name}': 'through' needs kind 'many'`);
  }
  const { defaultTop = DEFAULT_PAGE_SIZE, maxTop = MAX_PAGE_SIZE, searchFields = [] } = declaration;
  if (defaultTop > maxTop) throw new Error(`'${declaration.table}': defaultTop exceeds maxTop`);
  for (const name of searchFields) {
    const field = Object.hasOwn(declaration.fields, name) ? declaration.fields[name] : undefined;
    if (field?.type !== 'string' || field.sql)
      throw new Error(`Search field '${name}' of '${declaration.table}' is not a text column`);
  }
  return {
    ...declaration,
    relations,
    defaultOrderBy: declaration.defaultOrderBy ?? declaration.key,
    defaultTop,
    maxTop,
    searchFields,
  };
}

export function isFilterable(field: FieldDef): boolean {
  return field.filterable ?? field.type !== 'json';
}

export function isSortable(field: FieldDef): boolean {
  return field.sortable ?? field.type !== 'json';
}

/** The fields a relation exposes, by API name. Unknown names in `fields` are a declaration bug. */
export function relatedFields(relation: RelationDef): ReadonlyMap<string, FieldDef> {
  const target = relation.resource();
  const names = relation.fields ?? Object.keys(target.fields);
  const exposed = new Map<string, FieldDef>();
  for (const name of names) {
    const field = target.fields[name];
    if (!field) throw new Error(`Relation to '${target.table}' exposes unknown field '${name}'`);
    exposed.set(name, field);
  }
  return exposed;
}

export const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * A number of seconds as the spec writes time spans (`HH:mm:ss`, as the contracts' `formatInterval`
 * writes it): the list SQL of a timer, an interval or a lifetime stored in seconds. Under 100 hours
 * it sorts as its text does.
 */
export function timeSpanSql(seconds: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`to_char(make_interval(secs => ${seconds}), 'HH24:MI:SS')`;
}

/** ` AND alias.column = 'value'` for each of a relation's `relatedWhere` values; nothing without them. */
export function relatedWhereSql(relation: RelationDef, alias: string): RawBuilder<unknown> {
  const held = Object.entries(relation.relatedWhere ?? {});
  if (held.length === 0) return sql``;
  return sql.join(
    held.map(([column, value]) => sql` AND ${sql.id(alias, column)} = ${value}`),
    sql``,
  );
}

/** The SQL of a field read from the row aliased `alias`. */
export function fieldSql(name: string, field: FieldDef, alias: string): RawBuilder<unknown> {
  if (field.sql) return sql`(${field.sql((column) => sql.id(alias, column))})`;
  return sql.id(alias, field.column ?? snakeCase(name));
}

/**
 * The text a resource's trigram index holds: its search fields lower-cased, joined by the unit
 * separator (no term the grid sends holds it), each missing value as empty text. A migration
 * indexes exactly this expression; the planner uses the index only for the same expression.
 *
 * @example
 *   // searchFields: ['title', 'description'] →
 *   lower(coalesce("t0"."title", '') || E'\x1f' || coalesce("t0"."description", ''))
 *   // CREATE INDEX … USING gin ((lower(coalesce(title, '') || E'\x1f' || coalesce(description, ''))) gin_trgm_ops)
 */
export function searchTextSql(resource: Resource, alias: string): RawBuilder<unknown> {
  const parts = resource.searchFields.map((name) => {
    const field = resource.fields[name];
    if (!field) throw new Error(`'${resource.table}' has no search field '${name}'`);
    return sql`coalesce(${fieldSql(name, field, alias)}, '')`;
  });
  return sql`lower(${sql.join(parts, sql` || E'\x1f' || `)})`;
}
