import { LIST_COUNT_CAP } from '@cfs/contracts/constants';
import { createHash } from 'node:crypto';
import type { Kysely, OperationNode, QueryResult, RawBuilder, SelectQueryBuilder } from 'kysely';
import { CompiledQuery, sql, TableNode } from 'kysely';
import type {
  Expansion,
  FieldRef,
  ListQueryInput,
  MatchFunction,
  OrderKey,
  ParsedListQuery,
  Predicate,
  QueryShape,
  SelectedField,
  Value,
  ValueExpr,
} from './list-query.js';
import { parseListQuery } from './list-query.js';
import { makeSkipToken } from './list-query-skip-token.js';
import type { TenantScope } from '../auth/tenant-scope.js';
import { executeCancellable } from '../db/cancellable.js';
import { tenantCondition } from '../db/scoped.js';
import { isTenantTable } from '../db/tenant-tables.js';
import { keepBounded } from '../bounded-map.js';
import type { FieldDef, Resource } from './resource.js';
import { fieldSql, relatedWhereSql, searchTextSql } from './resource.js';

/**
 * Answers a list request: applies $filter, $orderby, $top, $skip or $skiptoken, $count, $expand
 * and $select to a base query that already holds the caller's tenant scope and selects the
 * resource table's columns. `tenants` limits the related tables that field paths join and $expand reads.
 *
 * The answer is the JSON text of `{"@odata.count"?: n, "value": [...], "@odata.nextLink"?: url}`:
 * each row arrives from the database as JSON text already in API shape, so it is spliced in, never
 * parsed and serialised again (the one list path the polling grids take on every refresh). A full
 * page links the next one: `path` with the same query, `$skiptoken` in place of `$skip`.
 *
 * @example
 *   const base = scoped(db, scope).selectFrom('tenant').selectAll();
 *   reply.type('application/json').send(await runListQuery(db, tenantEntity.resource, base, request.query, scope, { path: '/v1/tenants' }));
 */
export async function runListQuery<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  resource: Resource,
  base: SelectQueryBuilder<DB, TB, O> | ListBase<DB, TB, O>,
  query: ListQueryInput,
  tenants: TenantScope,
  options: ListRunOptions = {},
): Promise<string> {
  return runCompiledList(db, compileList(db, resource, base, query, tenants), query, options);
}

export interface ListRunOptions {
  /** The list's path, for `@odata.nextLink`; the link is relative to the query without it. */
  readonly path?: string;
  /** Aborted when the caller goes away: the running statements are cancelled on the server. */
  readonly signal?: AbortSignal;
}

/** Runs a list request's statements (compileList) and answers its JSON text, as runListQuery does. */
export async function runCompiledList<DB>(
  db: Kysely<DB>,
  compiled: CompiledList,
  query: ListQueryInput,
  options: ListRunOptions = {},
): Promise<string> {
  const run = <R>(statement: CompiledQuery<R>) => executeCancellable(db, statement, options.signal);
  const resolved = new Map<RelatedKeys, KeysLookup>();
  const resolve = <R>(statement: CompiledQuery<R>) => resolveRelatedKeys(db, statement, resolved, run);
  // One statement at a time, the page first: a request holds one database connection, so the
  // reads of a tenant (one at a time per instance, http/tenant-shares.ts) take at most one core of
  // the database server however costly its search, and other tenants keep the rest. Run side by
  // side, a costly search's page and count took both cores of a two-core server, and another
  // tenant's p99 doubled. The count is not asked for when the page shows where the list ends: a
  // page shorter than $top, reached by $skip, ends at $skip plus its rows.
  const page = await resolve(compiled.rows).then(run);
  const { parsed } = compiled;
  const endsHere =
    parsed.after === undefined && page.rows.length < parsed.top && (page.rows.length > 0 || parsed.skip === 0);
  const counted =
    compiled.count &&
    (endsHere ? parsed.skip + page.rows.length : Number((await resolve(compiled.count).then(run)).rows[0]?.count ?? 0));
  const parts: string[] = [];
  if (counted !== undefined) {
    parts.push(
      counted > LIST_COUNT_CAP
        ? `"@odata.count":${LIST_COUNT_CAP},"@cfs.countIsLowerBound":true`
        : `"@odata.count":${counted}`,
    );
  }
  parts.push(`"value":[${page.rows.map((result) => result.row).join(',')}]`);
  const last = page.rows.at(-1);
  // A full page may have a next one; a shorter page is the last.
  if (parsed.top > 0 && page.rows.length === parsed.top && last?.after) {
    const after = JSON.parse(last.after) as (string | null)[];
    parts.push(
      `"@odata.nextLink":${JSON.stringify(nextLink(options.path ?? '', query, makeSkipToken(parsed, after)))}`,
    );
  }
  return `{${parts.join(',')}}`;
}

/** The request again, starting after its last row: `$skiptoken` in place of `$skip` (and of an earlier token). */
function nextLink(path: string, query: ListQueryInput, token: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (name === '$skip' || name === '$skiptoken' || value === undefined) continue;
    params.set(name, String(value));
  }
  params.set('$skiptoken', token);
  // `$` is allowed as it is in a query, and reads as the OData options it names.
  return `${path}?${params.toString().replaceAll('%24', '$')}`;
}

/**
 * Runs one statement of `buildListSql` (a CSV export's rows), its relation conditions' keys looked
 * up first as runListQuery does (relatedKeysSql); cancelled on the server when `signal` aborts.
 */
export async function executeListStatement<DB, R>(
  db: Kysely<DB>,
  statement: RawBuilder<R>,
  signal?: AbortSignal,
): Promise<QueryResult<R>> {
  const run = <T>(compiled: CompiledQuery<T>) => executeCancellable(db, compiled, signal);
  return run(await resolveRelatedKeys(db, statement.compile(db), new Map(), run));
}

/** Rows read through a cursor, a batch at a time (`openListCursor`). */
export interface ListCursor<R> {
  /** The first batch, read when the cursor was opened. */
  readonly first: readonly R[];
  /** The next batch; empty once every row has been read. */
  next(): Promise<readonly R[]>;
  /** Ends the cursor's read-only transaction; safe to call more than once. */
  close(): Promise<void>;
}

/**
 * One statement of `buildListSql` (unpaged: an export of every row) read through a server-side
 * cursor in a read-only transaction, `batch` rows per fetch: the database sorts once and the
 * caller holds one batch at a time, however many rows there are, and each fetch is a short
 * statement under the request's statement timeout. The first batch is read here, so a failure
 * to reach the database rejects before the caller has answered anything.
 */
export async function openListCursor<DB, R>(
  db: Kysely<DB>,
  statement: RawBuilder<R>,
  batch: number,
  signal?: AbortSignal,
): Promise<ListCursor<R>> {
  const run = <T>(compiled: CompiledQuery<T>) => executeCancellable(db, compiled, signal);
  const compiled = await resolveRelatedKeys(db, statement.compile(db), new Map(), run);
  const trx = await db.startTransaction().setAccessMode('read only').execute();
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await trx.rollback().execute();
  };
  const fetch = async (): Promise<readonly R[]> => {
    if (!open) return [];
    // Not cancellable: a fetch is one short batch, and a caller who left ends the cursor after it.
    const { rows } = await trx.executeQuery(CompiledQuery.raw(`FETCH ${batch} FROM list_export`));
    return rows as R[];
  };
  try {
    await trx.executeQuery(
      CompiledQuery.raw(`DECLARE list_export NO SCROLL CURSOR FOR ${compiled.sql}`, [...compiled.parameters]),
    );
    return { first: await fetch(), next: fetch, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** A list request's statements, compiled (compileList). */
export interface CompiledList {
  readonly parsed: ParsedListQuery;
  readonly rows: CompiledQuery<ListSqlRow>;
  /** Present when $count asks for the count. */
  readonly count: CompiledQuery<{ count: number | string | bigint }> | undefined;
  /** Every table the statements read (tablesOf): a change to any of them may change the answer. */
  readonly tables: readonly string[];
  /** A digest of the statements' SQL and parameters: the request as the database sees it. */
  readonly digest: string;
}

/**
 * A list's base statement (the caller's rows of the resource table) with the text that names it in
 * the compiled statements' cache: made once per caller and reused, it spares compiling the base on
 * every call (registerListRoutes keeps one per principal).
 */
export interface ListBase<DB, TB extends keyof DB, O> {
  readonly query: SelectQueryBuilder<DB, TB, O>;
  readonly key: string;
}

export function listBase<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): ListBase<DB, TB, O> {
  const compiled = query.compile();
  return { query, key: JSON.stringify([compiled.sql, compiled.parameters]) };
}

/** Compiled list statements by resource, then by base statement, scope and query. */
const compiledLists = new WeakMap<Resource, Map<string, CompiledList>>();
const COMPILED_PER_RESOURCE = 500;

/**
 * A list call's statements, compiled once per distinct request (parsing, building and compiling
 * cost more than the rest of a call whose caller is cached): a grid's polling repeats its request
 * exactly. Only statements that compiled are kept, so a bad query is refused every time.
 */
export function compileList<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  resource: Resource,
  base: SelectQueryBuilder<DB, TB, O> | ListBase<DB, TB, O>,
  query: ListQueryInput,
  tenants: TenantScope,
): CompiledList {
  const { query: baseQuery, key: baseKey } = 'key' in base ? base : listBase(base);
  const key = JSON.stringify([baseKey, tenants, query]);
  let byKey = compiledLists.get(resource);
  if (!byKey) compiledLists.set(resource, (byKey = new Map()));
  const known = byKey.get(key);
  if (known) {
    // Most recently used last: a Map keeps insertion order, so the first entry is the one to drop.
    byKey.delete(key);
    byKey.set(key, known);
    return known;
  }
  const parsed = parseListQuery(resource, query);
  const statements = buildListSql(baseQuery, parsed, tenants);
  const rows = statements.rows.compile(db);
  const count = parsed.count ? statements.count.compile(db) : undefined;
  const tables = new Set([
    ...tablesOf(statements.rows.toOperationNode()),
    ...(count ? tablesOf(statements.count.toOperationNode()) : []),
  ]);
  const digest = createHash('sha256')
    .update(
      JSON.stringify([rows.sql, rows.parameters, count?.sql, count?.parameters], (_key, item: unknown) =>
        typeof item === 'bigint' ? item.toString() : item,
      ),
    )
    .digest('base64url');
  const compiled: CompiledList = { parsed, rows, count, tables: [...tables].sort(), digest };
  return keepBounded(byKey, key, compiled, COMPILED_PER_RESOURCE);
}

/**
 * Every table a statement reads: its FROM, joins, subqueries and expansions, the base query's
 * included. A column reference's qualifier (`t0.tenant_id`) is an alias, not a table read. A name
 * taken wrongly for a table has no change counter, so the list goes untagged: a mistake here costs
 * a query, never a stale answer.
 */
export function tablesOf(node: OperationNode): string[] {
  const tables = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if ('kind' in value && TableNode.is(value as OperationNode)) {
      tables.add((value as TableNode).table.identifier.name);
      return;
    }
    const qualified = 'kind' in value && value.kind === 'ReferenceNode';
    for (const [key, item] of Object.entries(value)) if (!(qualified && key === 'table')) visit(item);
  };
  visit(node);
  return [...tables].sort();
}

/**
 * A row of the rows statement: its JSON text and, for a paged statement, the text of its
 * order-key values (what a `$skiptoken` starting after it holds).
 */
export interface ListSqlRow {
  row: string;
  /** The JSON text of an array of the values' texts (read for the page's last row only). */
  after?: string;
}

/**
 * The two statements of a list request, run side by side. `rows` yields the JSON text of one
 * object per row, already in API shape — or, given `cells` (a CSV export's columns), of one array
 * per row holding those fields in that order, read through the same tenant-limited joins as
 * sorting. `paged: false` drops $top/$skip. `count` counts the filtered rows only, and at most
 * one more than LIST_COUNT_CAP: no ordering, no expansions, no joins that only sorting needs.
 *
 * A page is found before it is built: the inner statement reads only the order keys (the key
 * last) of the rows in order and keeps the page's; only those rows are read again by key and
 * turned into JSON, with their expansions. Skipped rows cost an index entry, not a JSON object.
 * After a `$skiptoken` the page starts where the token's row was, found through the order's index
 * as page 1 is (`keysetBranches`), however deep it is.
 */
export function buildListSql<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  parsed: ParsedListQuery,
  tenants: TenantScope,
  options: { readonly paged?: boolean; readonly cells?: readonly FieldRef[] } = {},
): { rows: RawBuilder<ListSqlRow>; count: RawBuilder<{ count: number | string | bigint }> } {
  const aliases = new Aliases(tenants);
  const root = new Scope(parsed.resource, 't0', aliases);
  const filter = parsed.filter && predicateSql(parsed.filter, root);
  const filterJoins = root.joinSql();
  const from = sql`FROM ${base} AS ${sql.id(root.alias)}`;
  const counted = clauses(
    sql`SELECT 1`,
    from,
    filterJoins,
    filter && sql`WHERE ${filter}`,
    sql`LIMIT ${sql.lit(LIST_COUNT_CAP + 1)}`,
  );
  const count = sql<{ count: number | string | bigint }>`SELECT count(*) AS "count" FROM (${counted}) AS "c"`;
  const order = sql`ORDER BY ${orderSql(parsed.orderBy, root)}`;

  if (options.paged === false) {
    const row = options.cells ? cellsJson(options.cells, root) : rowJson(parsed, root);
    return {
      rows: clauses<ListSqlRow>(
        sql`SELECT (${row})::text AS "row"`,
        from,
        root.joinSql(),
        filter && sql`WHERE ${filter}`,
        order,
      ),
      count,
    };
  }

  // The page's keys: the order's values carried out as o0, o1, … (the last is the key).
  const carried = sql.join(parsed.orderBy.map((key, index) => sql`${root.field(key.ref)} AS ${sql.id(`o${index}`)}`));
  const carriedOrder = (alias: string) =>
    sql.join(
      parsed.orderBy.map(
        (key, index) => sql`${sql.id(alias, `o${index}`)} ${sql.raw(key.descending ? 'DESC' : 'ASC')}`,
      ),
    );
  let page: RawBuilder<unknown>;
  if (!parsed.after) {
    page = clauses(
      sql`SELECT ${carried}`,
      from,
      root.joinSql(),
      filter && sql`WHERE ${filter}`,
      order,
      sql`LIMIT ${parsed.top} OFFSET ${parsed.skip}`,
    );
  } else {
    const branches = keysetBranches(parsed.orderBy, parsed.after, root);
    const joins = root.joinSql();
    const parts = branches.map((branch) =>
      clauses(
        sql`SELECT ${carried}`,
        from,
        joins,
        sql`WHERE ${filter ? sql`(${filter}) AND ` : sql``}${branch}`,
        order,
        sql`LIMIT ${parsed.top}`,
      ),
    );
    page =
      parts.length === 1
        ? parts[0]!
        : sql`SELECT * FROM (${sql.join(
            parts.map((part) => sql`(${part})`),
            sql` UNION ALL `,
          )}) AS "u" ORDER BY ${carriedOrder('u')} LIMIT ${parsed.top}`;
  }

  const { key } = parsed.resource;
  const keyField = parsed.resource.fields[key];
  if (!keyField) throw new Error(`'${parsed.resource.table}' declares the unknown key '${key}'`);
  const rowScope = new Scope(parsed.resource, 'r0', aliases);
  const row = options.cells ? cellsJson(options.cells, rowScope) : rowJson(parsed, rowScope);
  const after = sql`json_build_array(${sql.join(parsed.orderBy.map((_, index) => sql`${sql.id('p', `o${index}`)}::text`))})::text`;
  const pageRows = sql`FROM (${page}) AS "p" JOIN ${base} AS ${sql.id(rowScope.alias)} ON ${fieldSql(key, keyField, rowScope.alias)} = ${sql.id('p', `o${parsed.orderBy.length - 1}`)}`;
  const rows = clauses<ListSqlRow>(
    sql`SELECT (${row})::text AS "row", ${after} AS "after"`,
    pageRows,
    rowScope.joinSql(),
    sql`ORDER BY ${carriedOrder('p')}`,
  );
  return { rows, count };
}

/**
 * The rows a list's `$filter` keeps, with the named fields under their API names: what an
 * aggregate over a list reads (the version report's `$apply`), through the same field SQL,
 * relation joins and tenant limits as the list itself. Run it with executeListStatement.
 *
 * @example
 *   const rows = filteredRowsSql(base, parseListQuery(resource, { $filter }), scope, ['deviceId', 'versionStatus']);
 *   sql`SELECT "versionStatus", count(DISTINCT "deviceId") FROM (${rows}) AS f GROUP BY 1`;
 */
export function filteredRowsSql<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  parsed: ParsedListQuery,
  tenants: TenantScope,
  fields: readonly string[],
): RawBuilder<Record<string, unknown>> {
  const root = new Scope(parsed.resource, 't0', new Aliases(tenants));
  const filter = parsed.filter && predicateSql(parsed.filter, root);
  const cells = fields.map((name) => {
    const field = Object.hasOwn(parsed.resource.fields, name) ? parsed.resource.fields[name] : undefined;
    if (!field) throw new Error(`'${parsed.resource.table}' has no field '${name}'`);
    return sql`${fieldSql(name, field, root.alias)} AS ${sql.id(name)}`;
  });
  return clauses(
    sql`SELECT ${sql.join(cells)}`,
    sql`FROM ${base} AS ${sql.id(root.alias)}`,
    root.joinSql(),
    filter && sql`WHERE ${filter}`,
  );
}

/**
 * The rows after a `$skiptoken`'s row in the order `keys`, as conditions whose union they are:
 * equal on the first i keys and after on key i, for each i. Each one is a range of an index on the
 * order's columns, read in index order from its start, so a page deep in the list costs what
 * page 1 costs; one condition with OR between them would be read from the list's start.
 *
 * NULLs sort as PostgreSQL sorts them: last ascending, first descending. So after a value come
 * the larger values and, ascending, the NULLs; after a NULL come nothing ascending and every
 * value descending. The key, last, is never NULL.
 */
function keysetBranches(
  keys: readonly OrderKey[],
  after: readonly (string | null)[],
  scope: Scope,
): RawBuilder<unknown>[] {
  const branches: RawBuilder<unknown>[] = [];
  const equal: RawBuilder<unknown>[] = [];
  for (const [index, key] of keys.entries()) {
    const field = scope.field(key.ref);
    // Values are bound as text of no declared type: PostgreSQL reads each as the type of the field it meets.
    const value = after[index] ?? null;
    const later: RawBuilder<unknown>[] = [];
    if (value === null) {
      if (key.descending) later.push(sql`${field} IS NOT NULL`);
    } else {
      later.push(sql`${field} ${sql.raw(key.descending ? '<' : '>')} ${value}`);
      if (!key.descending && index < keys.length - 1) later.push(sql`${field} IS NULL`);
    }
    for (const condition of later) branches.push(sql.join([...equal, condition], sql` AND `));
    equal.push(value === null ? sql`${field} IS NULL` : sql`${field} = ${value}`);
  }
  return branches;
}

/**
 * Joins the clauses that are present with single spaces. `T`, the row type of the statement, is
 * declared rather than checked: the one unchecked type in this layer (rows are built by rowJson).
 */
function clauses<T>(...parts: (RawBuilder<unknown> | false | undefined)[]): RawBuilder<T> {
  return sql.join(
    parts.filter((part) => part !== false && part !== undefined),
    sql` `,
  );
}

/** The aliases of one statement, and the tenants its related tables are limited to. */
class Aliases {
  private count = 0;
  constructor(readonly tenants: TenantScope) {}

  /** ` AND <tenant condition>` for a tenant-owned table read as `alias`; nothing for other tables. */
  tenantClause(table: string, alias: string): RawBuilder<unknown> {
    return isTenantTable(table) && this.tenants.kind !== 'all'
      ? sql` AND ${tenantCondition(table, alias, this.tenants)}`
      : sql``;
  }

  next(prefix: string): string {
    return `${prefix}${++this.count}`;
  }
}

/** One FROM item and the to-one joins its field paths needed, each joined once. */
class Scope {
  private readonly joins = new Map<string, { alias: string; sql: RawBuilder<unknown> }>();

  constructor(
    readonly resource: Resource,
    readonly alias: string,
    readonly aliases: Aliases,
  ) {}

  field(ref: FieldRef): RawBuilder<unknown> {
    let alias = this.alias;
    let resource = this.resource;
    for (const [index, name] of ref.relations.entries()) {
      const relation = Object.hasOwn(resource.relations, name) ? resource.relations[name] : undefined;
      if (!relation) throw new Error(`'${resource.table}' has no relation '${name}'`);
      const target = relation.resource();
      const path = ref.relations.slice(0, index + 1).join('/');
      let join = this.joins.get(path);
      if (!join) {
        const joinAlias = this.aliases.next('j');
        const on = sql`${sql.id(joinAlias, relation.relatedColumn ?? relation.column)} = ${sql.id(alias, relation.column)}${relatedWhereSql(relation, joinAlias)}`;
        // Another tenant's related row is joined as missing, like one that does not exist.
        join = {
          alias: joinAlias,
          sql: sql`LEFT JOIN ${sql.table(target.table)} AS ${sql.id(joinAlias)} ON ${on}${this.aliases.tenantClause(target.table, joinAlias)}`,
        };
        this.joins.set(path, join);
      }
      alias = join.alias;
      resource = target;
    }
    return fieldSql(ref.name, ref.field, alias);
  }

  joinSql(): RawBuilder<unknown> | undefined {
    return this.joins.size === 0 ? undefined : clauses(...[...this.joins.values()].map((join) => join.sql));
  }
}

const operators = { eq: '=', ne: 'IS DISTINCT FROM', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

function predicateSql(predicate: Predicate, scope: Scope): RawBuilder<unknown> {
  switch (predicate.kind) {
    case 'and':
      return andSql(predicate.operands, scope);
    case 'or':
      return orSql(predicate.operands, scope);
    case 'not':
      // A comparison with NULL is NULL in SQL; OData's `not` of it is true.
      return sql`(${predicateSql(predicate.operand, scope)}) IS NOT TRUE`;
    case 'compare':
    case 'in':
    case 'match': {
      const keyed = keyedCondition(predicate, scope);
      if (keyed) return relatedKeysSql([keyed.condition], keyed.relation, scope);
      const term = searchTerm(predicate, scope);
      return term === undefined
        ? conditionSql(predicate, scope)
        : narrowedSql(term, [conditionSql(predicate, scope)], scope);
    }
    case 'isNull': {
      const keyed = keyedCondition(predicate, scope);
      if (keyed) return relatedKeysSql([keyed.condition], keyed.relation, scope);
      return sql`${valueSql(predicate.operand, scope)} ${sql.raw(predicate.negated ? 'IS NOT NULL' : 'IS NULL')}`;
    }
    case 'isTrue':
      return valueSql(predicate.operand, scope);
    case 'constant':
      return predicate.value ? sql`true` : sql`false`;
  }
}

type Condition = Extract<Predicate, { kind: 'compare' | 'in' | 'match' }>;
/** A condition a to-one relation's keys can answer: false when there is no related row. */
type KeyedCondition = Condition | Extract<Predicate, { kind: 'isNull' }>;

/** A comparison, list or text match as written: on the row's own columns or through the joins of its path. */
function conditionSql(predicate: Condition, scope: Scope): RawBuilder<unknown> {
  switch (predicate.kind) {
    case 'compare': {
      const left = valueSql(predicate.left, scope);
      if (predicate.right.kind === 'value')
        return sql`${left} ${sql.raw(operators[predicate.op])} ${bind(predicate.right)}`;
      // Two fields: OData's eq is true when both are null.
      const op = predicate.op === 'eq' ? 'IS NOT DISTINCT FROM' : operators[predicate.op];
      return sql`${left} ${sql.raw(op)} ${valueSql(predicate.right, scope)}`;
    }
    case 'in': {
      const operand = valueSql(predicate.operand, scope);
      const isNull = sql`${operand} IS NULL`;
      if (predicate.values.length === 0) return isNull;
      const list = sql`${operand} IN (${sql.join(predicate.values.map(bind))})`;
      return predicate.orNull ? sql`(${list} OR ${isNull})` : list;
    }
    case 'match':
      return sql`${valueSql(predicate.operand, scope)} ILIKE ${likePattern(predicate.fn, predicate.value)}`;
  }
}

/** The LIKE pattern of a match, its own `%`, `_` and `\` escaped (backslash is LIKE's default escape). */
function likePattern(fn: MatchFunction, value: string): string {
  const escaped = value.replace(/[\\%_]/g, '\\$&');
  return fn === 'contains' ? `%${escaped}%` : fn === 'startswith' ? `${escaped}%` : `%${escaped}`;
}

/**
 * An OR, with the matches its resource's search text can narrow grouped by term: the grid's
 * search box (`contains(tolower(title),'x') or contains(tolower(description),'x') or …`) becomes
 * one trigram index lookup and a check of the original matches on the rows it finds. The other
 * operands stay arms of their own, so each arm has an index the planner can BitmapOr.
 */
function orSql(operands: readonly Predicate[], scope: Scope): RawBuilder<unknown> {
  const byTerm = new Map<string, RawBuilder<unknown>[]>();
  const arms: (RawBuilder<unknown> | string)[] = [];
  for (const operand of operands) {
    const term = operand.kind === 'match' ? searchTerm(operand, scope) : undefined;
    if (term === undefined || operand.kind !== 'match') {
      arms.push(predicateSql(operand, scope));
      continue;
    }
    let matches = byTerm.get(term);
    if (!matches) {
      byTerm.set(term, (matches = []));
      arms.push(term);
    }
    matches.push(conditionSql(operand, scope));
  }
  const parts = arms.map((arm) => (typeof arm === 'string' ? narrowedSql(arm, byTerm.get(arm) ?? [], scope) : arm));
  return sql`(${sql.join(parts, sql` OR `)})`;
}

/**
 * The term of a match that the resource's search text can narrow: a match on one of its search
 * fields, as is or lower-cased. Undefined otherwise.
 */
function searchTerm(predicate: Predicate, scope: Scope): string | undefined {
  if (predicate.kind !== 'match') return undefined;
  const operand = predicate.operand.kind === 'tolower' ? predicate.operand.arg : predicate.operand;
  if (
    operand.kind !== 'field' ||
    operand.ref.relations.length > 0 ||
    !scope.resource.searchFields.includes(operand.ref.name)
  )
    return undefined;
  return predicate.value;
}

/**
 * `(<search text> LIKE lower('%term%') AND (matches))`: the trigram index finds the rows whose
 * searched text holds the term anywhere, the matches keep their own meaning (a field, a start, an
 * end). Every match on a search field implies the first condition (ILIKE compares lower-cased
 * texts), so no row is lost. A term without three letters or digits in a row holds no trigram and
 * the index cannot serve it; the rows are read instead, and one LIKE over the lower-cased text
 * still rules most of them out at half the cost of checking each field (1.2 s against 2.7 s for a
 * rare two-letter term over 600,000 rows).
 */
function narrowedSql(term: string, matches: readonly RawBuilder<unknown>[], scope: Scope): RawBuilder<unknown> {
  return sql`(${searchTextSql(scope.resource, scope.alias)} LIKE lower(${likePattern('contains', term)}) AND (${sql.join(matches, sql` OR `)}))`;
}

/**
 * Conditions on fields of one to-one relation (`tenant/name`) as the keys of the related rows that
 * meet them all, the related table limited to the caller's tenants as the join is:
 *
 *   (t0.tenant_id = ANY($keys) OR ($own AND EXISTS (SELECT 1 FROM tenant AS r
 *                                                  WHERE r.tenant_id = t0.tenant_id AND …)))
 *
 * The row's side is then its own indexed column, which an OR can BitmapOr with the other arms'
 * indexes; the join left every row to be read and checked. Only conditions that are false when
 * there is no related row can be read this way (keyedCondition).
 *
 * `$keys` (RelatedKeys) and `$own` (RelatedKeysOwn) are filled by runListQuery just before the
 * statement runs: the keys, when there are at most MAX_RELATED_KEYS, and `$own` false. The planner
 * then plans with the actual keys — none, usually, for a search term — where for the subquery it
 * would assume a tenth of the table matches and walk the sort index past every row for a page of a
 * handful. With more keys than that (every breached clock of a year), `$own` is true and each row
 * looks for its related row itself, through the related table's key. As compiled (no keys, `$own`
 * true) the statement stands on its own.
 */
function relatedKeysSql(
  conditions: readonly KeyedCondition[],
  relationName: string,
  scope: Scope,
): RawBuilder<unknown> {
  const relation = scope.resource.relations[relationName];
  if (!relation) throw new Error(`'${scope.resource.table}' has no relation '${relationName}'`);
  const target = relation.resource();
  const inner = new Scope(target, scope.aliases.next('r'), scope.aliases);
  const innerConditions = conditions.map((predicate) => {
    const operand = predicate.kind === 'compare' ? predicate.left : predicate.operand;
    const ref = fieldOf(operand);
    const innerOperand = withField(operand, { ...ref, relations: ref.relations.slice(1) });
    switch (predicate.kind) {
      case 'isNull':
        return sql`${valueSql(innerOperand, inner)} IS NOT NULL`;
      case 'compare':
        return conditionSql({ ...predicate, left: innerOperand }, inner);
      default:
        return conditionSql({ ...predicate, operand: innerOperand }, inner);
    }
  });
  const relatedColumn = sql.id(inner.alias, relation.relatedColumn ?? relation.column);
  const column = sql.id(scope.alias, relation.column);
  const where = sql`${sql.join(innerConditions, sql` AND `)}${relatedWhereSql(relation, inner.alias)}${scope.aliases.tenantClause(target.table, inner.alias)}`;
  const from = sql`FROM ${sql.table(target.table)} AS ${sql.id(inner.alias)}`;
  const keys = clauses<{ key: unknown }>(
    sql`SELECT ${relatedColumn} AS "key"`,
    from,
    inner.joinSql(),
    sql`WHERE ${where}`,
  );
  // Read row by row, each through the related table's key: a set of keys too big to hold in memory
  // would otherwise be searched again for every row.
  const own = clauses(sql`SELECT 1`, from, inner.joinSql(), sql`WHERE ${relatedColumn} = ${column} AND ${where}`);
  const parameter = new RelatedKeys(keys);
  return sql`(${column} = ANY(${parameter}) OR (${new RelatedKeysOwn(parameter)}::boolean AND EXISTS (${own})))`;
}

/**
 * A condition that a to-one relation's keys can answer (relatedKeysSql): one on a related field
 * that is false when there is no related row (a match, a comparison other than `ne`, an `in`
 * without null, `ne null`). Undefined for the row's own fields and any other condition.
 */
function keyedCondition(
  predicate: Predicate,
  scope: Scope,
): { relation: string; condition: KeyedCondition } | undefined {
  let operand: ValueExpr;
  switch (predicate.kind) {
    case 'compare':
      if (predicate.op === 'ne' || predicate.right.kind !== 'value') return undefined;
      operand = predicate.left;
      break;
    case 'in':
      if (predicate.orNull || predicate.values.length === 0) return undefined;
      operand = predicate.operand;
      break;
    case 'match':
      operand = predicate.operand;
      break;
    case 'isNull':
      if (!predicate.negated || predicate.operand.kind !== 'field') return undefined;
      operand = predicate.operand;
      break;
    default:
      return undefined;
  }
  const [name] = fieldOf(operand).relations;
  const relation =
    name !== undefined && Object.hasOwn(scope.resource.relations, name) ? scope.resource.relations[name] : undefined;
  return name !== undefined && relation?.kind === 'one' ? { relation: name, condition: predicate } : undefined;
}

/**
 * An `and`: its conditions on one to-one relation are read as one set of keys (`clock/due ge a and
 * clock/due le b`: the related rows in that range, through the range's index), the rest as written.
 */
function andSql(operands: readonly Predicate[], scope: Scope): RawBuilder<unknown> {
  const byRelation = new Map<string, KeyedCondition[]>();
  const parts: RawBuilder<unknown>[] = [];
  for (const operand of operands) {
    const keyed = keyedCondition(operand, scope);
    if (!keyed) {
      parts.push(predicateSql(operand, scope));
      continue;
    }
    const group = byRelation.get(keyed.relation);
    if (group) group.push(keyed.condition);
    else byRelation.set(keyed.relation, [keyed.condition]);
  }
  for (const [name, conditions] of byRelation) parts.push(relatedKeysSql(conditions, name, scope));
  return sql`(${sql.join(parts, sql` AND `)})`;
}

/**
 * The most keys a relation condition is answered by as a list of keys: past them, each row looks
 * for its related row itself (relatedKeysSql), rather than search a list that long again and again.
 */
const MAX_RELATED_KEYS = 5_000;

/**
 * The keys a relation condition selects, as a statement parameter (see relatedKeysSql). The
 * driver sends it as NULL until `resolveRelatedKeys` has put the keys in its place, and as no
 * keys when they are more than MAX_RELATED_KEYS.
 */
class RelatedKeys {
  constructor(readonly keys: RawBuilder<{ key: unknown }>) {}

  /** node-postgres calls this to serialise a parameter. */
  toPostgres(): null {
    return null;
  }
}

/**
 * Whether the statement reads a relation condition's keys itself: true as compiled (the statement
 * stands on its own), false once `resolveRelatedKeys` has found at most MAX_RELATED_KEYS of them.
 */
class RelatedKeysOwn {
  constructor(readonly of: RelatedKeys) {}

  toPostgres(): boolean {
    return true;
  }
}

type KeysLookup = Promise<{ keys: unknown[] | null }>;

/**
 * A compiled statement with each RelatedKeys parameter replaced by the keys it selects now (one
 * query per parameter, shared by the statements of one run), or by none and its RelatedKeysOwn by
 * true when there are more than MAX_RELATED_KEYS: the planner, given the values, keeps only the
 * branch they choose.
 */
async function resolveRelatedKeys<DB, R>(
  db: Kysely<DB>,
  statement: CompiledQuery<R>,
  resolved: Map<RelatedKeys, KeysLookup>,
  run: <T>(statement: CompiledQuery<T>) => Promise<QueryResult<T>>,
): Promise<CompiledQuery<R>> {
  if (!statement.parameters.some((parameter) => parameter instanceof RelatedKeys)) return statement;
  const lookup = (parameter: RelatedKeys): KeysLookup => {
    let found = resolved.get(parameter);
    if (!found) {
      const limited = sql<{
        key: unknown;
      }>`SELECT "k"."key" FROM (${parameter.keys}) AS "k" LIMIT ${MAX_RELATED_KEYS + 1}`;
      found = run(limited.compile(db)).then((result) => ({
        keys: result.rows.length > MAX_RELATED_KEYS ? null : result.rows.map((row) => row.key),
      }));
      resolved.set(parameter, found);
    }
    return found;
  };
  const parameters = await Promise.all(
    statement.parameters.map(async (parameter) => {
      if (parameter instanceof RelatedKeys) return (await lookup(parameter)).keys ?? [];
      if (parameter instanceof RelatedKeysOwn) return (await lookup(parameter.of)).keys === null;
      return parameter;
    }),
  );
  return { ...statement, parameters };
}

function fieldOf(expr: ValueExpr): FieldRef {
  return expr.kind === 'field' ? expr.ref : fieldOf(expr.arg);
}

function withField(expr: ValueExpr, ref: FieldRef): ValueExpr {
  return expr.kind === 'field' ? { kind: 'field', ref } : { kind: expr.kind, arg: withField(expr.arg, ref) };
}

function valueSql(expr: ValueExpr, scope: Scope): RawBuilder<unknown> {
  switch (expr.kind) {
    case 'field':
      return scope.field(expr.ref);
    case 'tolower':
      return sql`lower(${valueSql(expr.arg, scope)})`;
    case 'toupper':
      return sql`upper(${valueSql(expr.arg, scope)})`;
  }
}

/** Values are always parameters. Strings, GUIDs and booleans take the type of the column they meet. */
function bind(value: Value): RawBuilder<unknown> {
  switch (value.type) {
    case 'integer':
      // int8 keeps int4 and int8 indexes usable and cannot overflow an int4 column's parameter.
      return sql`${value.value}::int8`;
    case 'number':
      return sql`${value.value}::numeric`;
    case 'datetime':
      return sql`${value.value}::timestamptz`;
    case 'date':
      return sql`${value.value}::date`;
    default:
      return sql`${value.value}`;
  }
}

function orderSql(keys: readonly OrderKey[], scope: Scope): RawBuilder<unknown> {
  return sql.join(keys.map((key) => sql`${scope.field(key.ref)} ${sql.raw(key.descending ? 'DESC' : 'ASC')}`));
}

/** One row as a JSON object: the same code shapes the top level and every expansion. */
function rowJson(shape: Pick<QueryShape, 'fields' | 'expand'>, scope: Scope): RawBuilder<unknown> {
  const pairs = [
    ...shape.fields.map((field) => sql`${sql.lit(field.name)}, ${outputSql(field, scope.alias)}`),
    ...shape.expand.map((expansion) => sql`${sql.lit(expansion.name)}, ${expansionSql(expansion, scope)}`),
  ];
  // json_build_object takes at most 100 arguments; wider rows are merged from chunks.
  const chunks: RawBuilder<unknown>[] = [];
  for (let start = 0; start < pairs.length || start === 0; start += 50) {
    chunks.push(sql`json_build_object(${sql.join(pairs.slice(start, start + 50))})`);
  }
  if (chunks.length === 1) return chunks[0]!;
  return sql`(${sql.join(
    chunks.map((chunk) => sql`${chunk}::jsonb`),
    sql` || `,
  )})::json`;
}

function outputSql({ name, field }: SelectedField, alias: string): RawBuilder<unknown> {
  return outputValue(fieldSql(name, field, alias), field);
}

function outputValue(value: RawBuilder<unknown>, field: FieldDef): RawBuilder<unknown> {
  // ISO 8601 in UTC, the same text on every driver and session time zone (datetime fields are timestamptz).
  if (field.type === 'datetime') return sql`to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return value;
}

/** A CSV row: the columns' values as one JSON array (at most MAX_EXPORT_COLUMNS, within json_build_array's 100 arguments). */
function cellsJson(cells: readonly FieldRef[], scope: Scope): RawBuilder<unknown> {
  return sql`json_build_array(${sql.join(cells.map((ref) => outputValue(scope.field(ref), ref.field)))})`;
}

/** A correlated subquery per expanded relation, evaluated only for the rows of the page. */
function expansionSql(expansion: Expansion, parent: Scope): RawBuilder<unknown> {
  const { relation } = expansion;
  const inner = new Scope(expansion.resource, parent.aliases.next('e'), parent.aliases);
  const table = sql`${sql.table(expansion.resource.table)} AS ${sql.id(inner.alias)}`;
  const relatedColumn = sql.id(inner.alias, relation.relatedColumn ?? relation.column);
  const parentColumn = sql.id(parent.alias, relation.column);
  if (relation.kind === 'one') {
    const tenantClause = parent.aliases.tenantClause(expansion.resource.table, inner.alias);
    return sql`(SELECT ${rowJson(expansion, inner)} FROM ${table} WHERE ${relatedColumn} = ${parentColumn}${relatedWhereSql(relation, inner.alias)}${tenantClause} LIMIT 1)`;
  }
  let link: RawBuilder<unknown> | undefined;
  let linked = sql`${relatedColumn} = ${parentColumn}`;
  if (relation.through) {
    const linkAlias = parent.aliases.next('l');
    const { table: linkTable, column, relatedColumn: linkColumn } = relation.through;
    link = sql`JOIN ${sql.table(linkTable)} AS ${sql.id(linkAlias)} ON ${sql.id(linkAlias, linkColumn)} = ${relatedColumn}`;
    linked = sql`${sql.id(linkAlias, column)} = ${parentColumn}`;
  }
  const filter = expansion.filter && sql`AND ${predicateSql(expansion.filter, inner)}`;
  const order = orderSql(expansion.orderBy, inner);
  const row = rowJson(expansion, inner);
  const limit = expansion.top !== undefined && sql`LIMIT ${expansion.top}`;
  const offset = expansion.skip > 0 && sql`OFFSET ${expansion.skip}`;
  const rows = parent.aliases.next('s');
  const select = clauses(
    sql`SELECT ${row} AS "row", row_number() OVER (ORDER BY ${order}) AS "ord" FROM ${table}`,
    link,
    inner.joinSql(),
    sql`WHERE ${linked}${relatedWhereSql(relation, inner.alias)}${parent.aliases.tenantClause(expansion.resource.table, inner.alias)}`,
    filter,
    sql`ORDER BY ${order}`,
    limit,
    offset,
  );
  // json_agg keeps the order only when told: row_number() carries it out of the subquery.
  const aggregate = sql`coalesce(json_agg(${sql.id(rows, 'row')} ORDER BY ${sql.id(rows, 'ord')}), '[]'::json)`;
  return sql`(SELECT ${aggregate} FROM (${select}) AS ${sql.id(rows)})`;
}
