import fc from 'fast-check';
import { Kysely, PostgresDialect, sql, type SelectQueryBuilder } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_TENANTS, type TenantScope } from '../auth/tenant-scope.js';
import { ListQueryError } from './list-query-error.js';
import { buildListSql, runListQuery } from './list-query-sql.js';
import { parseListQuery, type ListQueryInput } from './list-query.js';
import type { FieldDef, Resource } from './resource.js';
import { defineResource } from './resource.js';
import { LIST_COUNT_CAP, MAX_SKIP } from '@cfs/contracts/constants';
import { createTestDatabase } from '../../test/test-database.js';

/*
 * List queries against a real database: random well-formed $filter/$orderby/$top/$skip requests over
 * ~200 generated rows, checked against an in-memory evaluator of the same generated tree, and the
 * shapes $expand and $select produce, in an empty database of the test server.
 */

// ---- the data -----------------------------------------------------------------------------------

interface TestDB {
  category: { category_id: number; name: string; rank: number | null };
  tag: { tag_id: number; name: string };
  item_tag: { item_id: number; tag_id: number };
  /** Only the count test's: more rows than the count cap. */
  many: { many_id: number; grp: number };
  item: {
    item_id: number;
    name: string;
    code: string | null;
    qty: number | null;
    price: string | null;
    active: boolean | null;
    ext_id: string | null;
    created: string | null;
    due: string | null;
    category_id: number | null;
    payload: string;
  };
}

interface Category {
  categoryId: number;
  name: string;
  rank: number | null;
}

/** An item as the API shows it, with its category joined in. */
interface Item {
  itemId: number;
  name: string;
  code: string | null;
  qty: number | null;
  price: number | null;
  active: boolean | null;
  extId: string | null;
  created: number | null; // epoch ms
  due: string | null;
  categoryId: number | null;
  category: Category | null;
}

// Quotes, LIKE wildcards, the escape character, case variants and characters outside the BMP.
/** A list answer read back as the client reads it: runListQuery answers JSON text. */
async function listed<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  resource: Resource,
  base: SelectQueryBuilder<DB, TB, O>,
  query: ListQueryInput,
  tenants: TenantScope,
): Promise<{ '@odata.count'?: number; value: Record<string, unknown>[]; '@odata.nextLink'?: string }> {
  return JSON.parse(await runListQuery(db, resource, base, query, tenants)) as {
    '@odata.count'?: number;
    value: Record<string, unknown>[];
    '@odata.nextLink'?: string;
  };
}

const alphabet = ['a', 'b', 'A', 'B', 'x', 'é', 'É', 'Ω', 'ω', '%', '_', '\\', "'", ' ', '中', '😀'];

function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(20240601);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const maybeNull = <T>(value: T): T | null => (random() < 0.12 ? null : value);
const randomText = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pick(alphabet)).join('');
const hex = (length: number) => Array.from({ length }, () => pick([...'0123456789abcdef'])).join('');
const randomGuid = () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
const START = Date.UTC(2023, 0, 1);
const END = START + 3 * 365 * 86_400_000;
const randomTime = () => START + Math.floor(random() * (END - START));
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const categories: Category[] = Array.from({ length: 8 }, (_, index) => ({
  categoryId: index + 1,
  name: index % 3 === 2 ? 'Ab' : index % 3 === 1 ? 'aB' : randomText(1, 4),
  rank: index === 4 ? null : Math.floor(random() * 5),
}));
const guids = Array.from({ length: 30 }, randomGuid);
const names = Array.from({ length: 60 }, () => randomText(0, 6));
const items: Item[] = Array.from({ length: 200 }, (_, index) => {
  const category = random() < 0.15 ? null : pick(categories);
  return {
    itemId: index + 1,
    name: pick(names),
    code: maybeNull(randomText(0, 4)),
    qty: maybeNull(Math.floor(random() * 21) - 5),
    price: maybeNull(Math.floor(random() * 4000 - 1000) / 100),
    active: maybeNull(random() < 0.5),
    extId: maybeNull(pick(guids)),
    created: maybeNull(randomTime()),
    due: maybeNull(isoDate(randomTime())),
    categoryId: category?.categoryId ?? null,
    category,
  };
});

const tags = [1, 2, 3, 4].map((tagId) => ({ tagId, name: `tag ${tagId}` }));
const itemTags = items.flatMap((item) =>
  tags.filter((tag) => (item.itemId + tag.tagId) % 3 === 0).map((tag) => ({ item, tag })),
);

const categoriesResource: Resource = defineResource({
  table: 'category',
  key: 'categoryId',
  fields: { categoryId: { type: 'integer' }, name: { type: 'string' }, rank: { type: 'integer' } },
  relations: { items: { kind: 'many', resource: () => itemsResource, column: 'category_id' } },
});

const tagsResource: Resource = defineResource({
  table: 'tag',
  key: 'tagId',
  fields: { tagId: { type: 'integer' }, name: { type: 'string' } },
});

const itemsResource: Resource = defineResource({
  table: 'item',
  key: 'itemId',
  fields: {
    itemId: { type: 'integer' },
    name: { type: 'string' },
    code: { type: 'string' },
    qty: { type: 'integer' },
    price: { type: 'number' },
    active: { type: 'boolean' },
    extId: { type: 'guid' },
    created: { type: 'datetime' },
    due: { type: 'date' },
    categoryId: { type: 'integer' },
    payload: { type: 'json' },
    label: { type: 'string', sql: (col) => sql`${col('name')} || '#' || ${col('item_id')}` },
  },
  relations: {
    category: { kind: 'one', resource: () => categoriesResource, column: 'category_id' },
    tags: {
      kind: 'many',
      resource: () => tagsResource,
      column: 'item_id',
      relatedColumn: 'tag_id',
      through: { table: 'item_tag', column: 'item_id', relatedColumn: 'tag_id' },
    },
  },
  defaultOrderBy: 'name',
  maxTop: 500,
  // Served by the trigram index that load() makes: every match on them is narrowed through it.
  searchFields: ['name', 'code'],
});

// ---- fields as the evaluator sees them --------------------------------------------------------

type Scalar = string | number | boolean;
type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'guid' | 'datetime' | 'date';

const fields = {
  itemId: { kind: 'integer', get: (item: Item) => item.itemId },
  name: { kind: 'string', get: (item: Item) => item.name },
  code: { kind: 'string', get: (item: Item) => item.code },
  qty: { kind: 'integer', get: (item: Item) => item.qty },
  price: { kind: 'number', get: (item: Item) => item.price },
  active: { kind: 'boolean', get: (item: Item) => item.active },
  extId: { kind: 'guid', get: (item: Item) => item.extId },
  created: { kind: 'datetime', get: (item: Item) => item.created },
  due: { kind: 'date', get: (item: Item) => item.due },
  categoryId: { kind: 'integer', get: (item: Item) => item.categoryId },
  'category/name': { kind: 'string', get: (item: Item) => item.category?.name ?? null },
  'category/rank': { kind: 'integer', get: (item: Item) => item.category?.rank ?? null },
} satisfies Record<string, { kind: Kind; get: (item: Item) => Scalar | null }>;
type FieldName = keyof typeof fields;
const fieldNames = Object.keys(fields) as FieldName[];
const fieldsOfKind = (kinds: readonly Kind[]) => fieldNames.filter((name) => kinds.includes(fields[name].kind));
const fieldValue = (name: FieldName, item: Item): Scalar | null => fields[name].get(item);

function codePointCompare(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = left[index]!.codePointAt(0)! - right[index]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

function compareScalars(a: Scalar, b: Scalar): number {
  if (typeof a === 'string' && typeof b === 'string') return codePointCompare(a, b);
  return Number(a) - Number(b);
}

// ---- generated filters ------------------------------------------------------------------------

type Op = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
interface Lit {
  value: Scalar;
  text: string;
}
type Operand = { field: FieldName; fn?: 'tolower' | 'toupper' };
type Expr =
  | { k: 'and' | 'or'; items: Expr[]; paren: boolean }
  | { k: 'not'; a: Expr }
  | { k: 'cmp'; op: Op; left: Operand; lit: Lit; litFirst: boolean }
  | { k: 'cmpFields'; op: Op; a: FieldName; b: FieldName }
  | { k: 'null'; field: FieldName; ne: boolean }
  | { k: 'in'; field: FieldName; lits: (Lit | null)[] }
  | { k: 'match'; fn: 'contains' | 'startswith' | 'endswith'; target: Operand; text: string }
  | { k: 'bool'; field: 'active' };

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
const pad = (value: number, length = 2) => String(value).padStart(length, '0');

function datetimeText(ms: number, offsetMinutes: number, fraction: boolean): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const millis = ms % 1000 === 0 && !fraction ? '' : `.${pad(ms % 1000, 3)}`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset =
    offsetMinutes === 0
      ? 'Z'
      : `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${local}${millis}${offset}`;
}

/** Half of the literals are values the data holds, so that eq and in find rows. */
function fromData<T extends Scalar>(
  field: FieldName,
  arb: fc.Arbitrary<T>,
  isT: (value: Scalar) => value is T,
): fc.Arbitrary<T> {
  const known = [...new Set(items.map((item) => fieldValue(field, item)))]
    .filter((value) => value !== null)
    .filter(isT);
  return known.length ? fc.oneof(fc.constantFrom(...known), arb) : arb;
}
const isString = (value: Scalar): value is string => typeof value === 'string';
const isNumber = (value: Scalar): value is number => typeof value === 'number';

function literalArb(kind: Kind, field: FieldName): fc.Arbitrary<Lit> {
  switch (kind) {
    case 'string': {
      const text = fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 5 });
      return fromData(field, text, isString).map((value) => ({ value, text: quote(value) }));
    }
    case 'integer':
      return fromData(field, fc.integer({ min: -7, max: 205 }), isNumber).map((value) => ({
        value,
        text: String(value),
      }));
    case 'number': {
      const decimal = fc.integer({ min: -12_000, max: 40_000 }).map((value) => value / 1000);
      return fromData(field, decimal, isNumber).map((value) => ({ value, text: String(value) }));
    }
    case 'boolean':
      return fc.boolean().map((value) => ({ value, text: String(value) }));
    case 'guid':
      return fc
        .tuple(fromData(field, fc.uuid(), isString), fc.constantFrom('bare', 'upper', 'quoted'))
        .map(([value, style]) => ({
          value,
          text: style === 'quoted' ? quote(value) : style === 'upper' ? value.toUpperCase() : value,
        }));
    case 'datetime':
      return fc
        .tuple(
          fromData(field, fc.integer({ min: START, max: END }), isNumber),
          fc.constantFrom(0, 120, -330, 60),
          fc.boolean(),
        )
        .map(([value, offset, fraction]) => ({ value, text: datetimeText(value, offset, fraction) }));
    case 'date':
      return fromData(field, fc.integer({ min: START, max: END }).map(isoDate), isString).map((value) => ({
        value,
        text: value,
      }));
  }
}

function substringArb(): fc.Arbitrary<string> {
  const texts = [...names, ...categories.map((category) => category.name)];
  return fc.oneof(
    fc.tuple(fc.constantFrom(...texts), fc.nat(), fc.nat(), fc.boolean()).map(([text, a, b, upper]) => {
      const chars = [...text];
      const start = a % (chars.length + 1);
      const sliced = chars.slice(start, start + (b % 4)).join('');
      return upper ? sliced.toUpperCase() : sliced;
    }),
    fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 3 }),
  );
}

function exprArb(stringOrdering: boolean): fc.Arbitrary<Expr> {
  const ordered = (kind: Kind): Op[] =>
    kind === 'string' && !stringOrdering ? ['eq', 'ne'] : ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
  const opArb = (kind: Kind) => fc.constantFrom(...ordered(kind));
  const stringOperand: fc.Arbitrary<Operand> = fc.record({
    field: fc.constantFrom(...fieldsOfKind(['string'])),
    fn: fc.constantFrom<Operand['fn']>(undefined, 'tolower', 'toupper'),
  });
  const cmp = fc.constantFrom(...fieldNames).chain((field) => {
    const kind = fields[field].kind;
    const fn = fc.constantFrom<Operand['fn']>(undefined, 'tolower', 'toupper');
    const left: fc.Arbitrary<Operand> =
      kind === 'string' ? fc.record({ field: fc.constant(field), fn }) : fc.constant({ field });
    return fc.record({
      k: fc.constant('cmp' as const),
      op: opArb(kind),
      left,
      lit: literalArb(kind, field),
      litFirst: fc.boolean(),
    });
  });
  const pairs: [FieldName, FieldName][] = [
    ['name', 'code'],
    ['name', 'category/name'],
    ['qty', 'categoryId'],
    ['qty', 'price'],
    ['categoryId', 'category/rank'],
  ];
  const cmpFields = fc.constantFrom(...pairs).chain(([a, b]) =>
    fc.record({
      k: fc.constant('cmpFields' as const),
      op: opArb(fields[a].kind),
      a: fc.constant(a),
      b: fc.constant(b),
    }),
  );
  const isNull = fc.record({
    k: fc.constant('null' as const),
    field: fc.constantFrom(...fieldNames),
    ne: fc.boolean(),
  });
  const inList = fc.constantFrom(...fieldNames).chain((field) =>
    fc.record({
      k: fc.constant('in' as const),
      field: fc.constant(field),
      lits: fc.array(fc.option(literalArb(fields[field].kind, field), { freq: 6 }), { minLength: 1, maxLength: 4 }),
    }),
  );
  const match = fc.record({
    k: fc.constant('match' as const),
    fn: fc.constantFrom('contains' as const, 'startswith' as const, 'endswith' as const),
    target: stringOperand,
    text: substringArb(),
  });
  const bool = fc.constant({ k: 'bool' as const, field: 'active' as const });
  const leaf: fc.Arbitrary<Expr> = fc.oneof(
    { weight: 5, arbitrary: cmp },
    { weight: 1, arbitrary: cmpFields },
    { weight: 1, arbitrary: isNull },
    { weight: 2, arbitrary: inList },
    { weight: 2, arbitrary: match },
    { weight: 1, arbitrary: bool },
  );
  const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({
        k: fc.constantFrom('and' as const, 'or' as const),
        items: fc.array(tie('expr'), { minLength: 2, maxLength: 3 }),
        paren: fc.boolean(),
      }),
      fc.record({ k: fc.constant('not' as const), a: tie('expr') }),
    ),
  }));
  return expr;
}

function printOperand(operand: Operand): string {
  return operand.fn ? `${operand.fn}(${operand.field})` : operand.field;
}

function print(expr: Expr): string {
  switch (expr.k) {
    case 'and':
    case 'or': {
      const parts = expr.items.map((item) => {
        const text = print(item);
        // `or` inside `and` needs parentheses; anything else may have them.
        return item.k === 'or' && expr.k === 'and' ? `(${text})` : text;
      });
      const joined = parts.join(` ${expr.k} `);
      return expr.paren ? `( ${joined} )` : joined;
    }
    case 'not':
      return `not ${expr.a.k === 'and' || expr.a.k === 'or' ? `(${print(expr.a)})` : print(expr.a)}`;
    case 'cmp':
      return expr.litFirst
        ? `${expr.lit.text} ${flip[expr.op]} ${printOperand(expr.left)}`
        : `${printOperand(expr.left)} ${expr.op} ${expr.lit.text}`;
    case 'cmpFields':
      return `${expr.a} ${expr.op} ${expr.b}`;
    case 'null':
      return `${expr.field} ${expr.ne ? 'ne' : 'eq'} null`;
    case 'in':
      return `${expr.field} in (${expr.lits.map((lit) => lit?.text ?? 'null').join(', ')})`;
    case 'match':
      return `${expr.fn}(${printOperand(expr.target)},${quote(expr.text)})`;
    case 'bool':
      return expr.field;
  }
}

const flip: Record<Op, Op> = { eq: 'eq', ne: 'ne', gt: 'lt', ge: 'le', lt: 'gt', le: 'ge' };

function operandValue(operand: Operand, item: Item): Scalar | null {
  const value = fieldValue(operand.field, item);
  if (typeof value !== 'string') return value;
  return operand.fn === 'tolower' ? value.toLowerCase() : operand.fn === 'toupper' ? value.toUpperCase() : value;
}

function compare(op: Op, a: Scalar | null, b: Scalar | null): boolean {
  if (a === null || b === null) {
    if (op === 'eq') return a === b;
    if (op === 'ne') return a !== b;
    return false;
  }
  const difference = compareScalars(a, b);
  return {
    eq: difference === 0,
    ne: difference !== 0,
    gt: difference > 0,
    ge: difference >= 0,
    lt: difference < 0,
    le: difference <= 0,
  }[op];
}

function evaluate(expr: Expr, item: Item): boolean {
  switch (expr.k) {
    case 'and':
      return expr.items.every((child) => evaluate(child, item));
    case 'or':
      return expr.items.some((child) => evaluate(child, item));
    case 'not':
      return !evaluate(expr.a, item);
    case 'cmp': {
      const value = operandValue(expr.left, item);
      const literal =
        typeof expr.lit.value === 'string' && fields[expr.left.field].kind === 'guid'
          ? expr.lit.value.toLowerCase()
          : expr.lit.value;
      return compare(expr.op, value, literal);
    }
    case 'cmpFields':
      return compare(expr.op, fieldValue(expr.a, item), fieldValue(expr.b, item));
    case 'null':
      return (fieldValue(expr.field, item) === null) !== expr.ne;
    case 'in': {
      const value = fieldValue(expr.field, item);
      return expr.lits.some((lit) =>
        lit === null ? value === null : value !== null && compare('eq', value, lit.value),
      );
    }
    case 'match': {
      const value = operandValue(expr.target, item);
      if (value === null || typeof value !== 'string') return false;
      const [text, pattern] = [value.toLowerCase(), expr.text.toLowerCase()];
      return expr.fn === 'contains'
        ? text.includes(pattern)
        : expr.fn === 'startswith'
          ? text.startsWith(pattern)
          : text.endsWith(pattern);
    }
    case 'bool':
      return item.active === true;
  }
}

/** Items in the order of `$orderby` keys, as PostgreSQL orders them. */
function sortedBy(matching: readonly Item[], keys: readonly { field: FieldName; desc: boolean }[]): Item[] {
  // A repeated field counts once (the first); the key breaks ties in the last distinct key's direction.
  const distinct = keys.filter((key, index) => keys.findIndex((other) => other.field === key.field) === index);
  const order = [...distinct, { field: 'itemId' as const, desc: distinct.at(-1)?.desc ?? false }];
  return [...matching].sort((a, b) => {
    for (const key of order) {
      const [x, y] = [fieldValue(key.field, a), fieldValue(key.field, b)];
      // PostgreSQL puts nulls last ascending and first descending: null is the largest value.
      const difference = x === null || y === null ? (x === null ? 1 : 0) - (y === null ? 1 : 0) : compareScalars(x, y);
      if (difference !== 0) return key.desc ? -difference : difference;
    }
    return 0;
  });
}

// ---- databases --------------------------------------------------------------------------------

async function openDatabase(): Promise<{ db: Kysely<TestDB>; close(): Promise<void> }> {
  const database = await createTestDatabase({ empty: true });
  const db = new Kysely<TestDB>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 4 }) }),
  });
  return {
    db,
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
}

async function load(db: Kysely<TestDB>): Promise<void> {
  await sql`CREATE TABLE category (category_id int4 PRIMARY KEY, name text NOT NULL, rank int4)`.execute(db);
  await sql`CREATE TABLE item (
    item_id int8 PRIMARY KEY, name text NOT NULL, code text, qty int4, price numeric(10, 2), active boolean,
    ext_id uuid, created timestamptz, due date, category_id int4 REFERENCES category, payload jsonb NOT NULL)`.execute(
    db,
  );
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX item_search_idx ON item USING gin ((lower(coalesce(name, '') || E'\\x1f' || coalesce(code, ''))) gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX category_name_idx ON category USING gin (lower(name) gin_trgm_ops)`.execute(db);
  await sql`CREATE TABLE tag (tag_id int4 PRIMARY KEY, name text NOT NULL)`.execute(db);
  await sql`CREATE TABLE item_tag (item_id int8 NOT NULL, tag_id int4 NOT NULL)`.execute(db);
  await db
    .insertInto('tag')
    .values(tags.map((tag) => ({ tag_id: tag.tagId, name: tag.name })))
    .execute();
  await db
    .insertInto('category')
    .values(
      categories.map((category) => ({ category_id: category.categoryId, name: category.name, rank: category.rank })),
    )
    .execute();
  await db
    .insertInto('item')
    .values(
      items.map((item) => ({
        item_id: item.itemId,
        name: item.name,
        code: item.code,
        qty: item.qty,
        price: item.price === null ? null : item.price.toFixed(2),
        active: item.active,
        ext_id: item.extId,
        created: item.created === null ? null : new Date(item.created).toISOString(),
        due: item.due,
        category_id: item.categoryId,
        payload: JSON.stringify({ n: item.itemId }),
      })),
    )
    .execute();
  await db
    .insertInto('item_tag')
    .values(itemTags.map(({ item, tag }) => ({ item_id: item.itemId, tag_id: tag.tagId })))
    .execute();
}

function expectedRow(item: Item) {
  return {
    itemId: item.itemId,
    name: item.name,
    code: item.code,
    qty: item.qty,
    price: item.price,
    active: item.active,
    extId: item.extId,
    created: item.created === null ? null : new Date(item.created).toISOString(),
    due: item.due,
    categoryId: item.categoryId,
    payload: { n: item.itemId },
    label: `${item.name}#${item.itemId}`,
    category: item.category,
  };
}

describe('list queries on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let stringOrdering = false;
  const base = () => database.db.selectFrom('item').selectAll();
  const ids = (rows: readonly Record<string, unknown>[]) => rows.map((row) => row.itemId);
  /** The page of the items `$filter` lists (up to 500, their ids only, in id order), with their count. */
  const filtered = ($filter: string) =>
    listed(
      database.db,
      itemsResource,
      base(),
      { $filter, $top: '500', $orderby: 'itemId', $count: 'true', $select: 'itemId' },
      ALL_TENANTS,
    );

  beforeAll(async () => {
    database = await openDatabase();
    await load(database.db);
    // String comparisons are checked against code point order, which is what C and C.UTF-8 collations give.
    const sample = [...new Set([...names, ...categories.map((category) => category.name)])];
    const { rows } = await sql<{ v: string }>`SELECT v FROM unnest(${sample}::text[]) AS v ORDER BY v`.execute(
      database.db,
    );
    stringOrdering = JSON.stringify(rows.map((row) => row.v)) === JSON.stringify([...sample].sort(codePointCompare));
  });
  afterAll(() => database?.close());

  test('returns every row in API shape, with the expanded relation', async () => {
    const page = await listed(
      database.db,
      itemsResource,
      base(),
      { $top: '500', $orderby: 'itemId', $expand: 'category', $count: 'true' },
      ALL_TENANTS,
    );
    expect(page['@odata.count']).toBe(items.length);
    expect(page.value).toEqual(items.map(expectedRow));
  });

  test('$select returns the chosen fields and the key; a computed field filters through its SQL', async () => {
    const item = items[41]!;
    const page = await listed(
      database.db,
      itemsResource,
      base(),
      { $select: 'label,qty', $filter: `label eq '${`${item.name}#${item.itemId}`.replaceAll("'", "''")}'` },
      ALL_TENANTS,
    );
    expect(page).toEqual({ value: [{ itemId: item.itemId, qty: item.qty, label: `${item.name}#${item.itemId}` }] });
  });

  test('$expand of a collection applies its own $filter, $orderby, $top, $skip and $select', async () => {
    const page = await listed(
      database.db,
      categoriesResource,
      database.db.selectFrom('category').selectAll(),
      {
        $orderby: 'categoryId',
        $expand: 'items($filter=qty gt 3 and category/rank ne null; $orderby=qty desc; $top=2; $skip=1; $select=qty)',
      },
      ALL_TENANTS,
    );
    expect(page.value).toEqual(
      categories.map((category) => ({
        ...category,
        items: items
          .filter(
            (item) =>
              item.categoryId === category.categoryId && item.qty !== null && item.qty > 3 && category.rank !== null,
          )
          .sort((a, b) => b.qty! - a.qty! || b.itemId - a.itemId)
          .slice(1, 3)
          .map((item) => ({ itemId: item.itemId, qty: item.qty })),
      })),
    );
  });

  test('$expand follows many-to-many links and nests with a/b and $expand inside $expand', async () => {
    const query = {
      $filter: 'itemId le 12',
      $orderby: 'itemId',
      $top: '50',
      $select: 'itemId',
      $expand: 'tags($select=name),category/items($top=2;$select=itemId;$orderby=itemId)',
    };
    const page = await listed(database.db, itemsResource, base(), query, ALL_TENANTS);
    expect(page.value).toEqual(
      items.slice(0, 12).map((item) => ({
        itemId: item.itemId,
        tags: itemTags.filter((link) => link.item === item).map(({ tag }) => tag),
        category: item.category && {
          ...item.category,
          items: items
            .filter((other) => other.categoryId === item.categoryId)
            .slice(0, 2)
            .map((other) => ({ itemId: other.itemId })),
        },
      })),
    );
    const nested = await listed(
      database.db,
      itemsResource,
      base(),
      { ...query, $expand: 'category($select=name;$expand=items($top=1;$select=itemId;$orderby=itemId))' },
      ALL_TENANTS,
    );
    expect(nested.value).toEqual(
      items.slice(0, 12).map((item) => ({
        itemId: item.itemId,
        category: item.category && {
          categoryId: item.categoryId,
          name: item.category.name,
          items: [{ itemId: items.find((other) => other.categoryId === item.categoryId)!.itemId }],
        },
      })),
    );
  });

  test('rows wider than the 100 arguments of json_build_object come back whole', async () => {
    const wide = defineResource({
      table: 'item',
      key: 'itemId',
      fields: Object.fromEntries<FieldDef>([
        ['itemId', { type: 'integer' }],
        ...Array.from({ length: 60 }, (_, index): [string, FieldDef] => [
          `plus${index}`,
          { type: 'integer', sql: (col) => sql`${col('item_id')} + ${sql.lit(index)}` },
        ]),
      ]),
    });
    const page = await listed(database.db, wide, base(), { $filter: 'itemId eq 3' }, ALL_TENANTS);
    expect(page.value).toEqual([
      Object.fromEntries([['itemId', 3], ...Array.from({ length: 60 }, (_, index) => [`plus${index}`, 3 + index])]),
    ]);
  });

  test('$top=0 answers only the count; without $count there is no @odata.count', async () => {
    expect(
      await listed(
        database.db,
        itemsResource,
        base(),
        { $top: '0', $count: 'true', $filter: 'active eq true' },
        ALL_TENANTS,
      ),
    ).toEqual({
      '@odata.count': items.filter((item) => item.active === true).length,
      value: [],
    });
    const page = await listed(database.db, itemsResource, base(), {}, ALL_TENANTS);
    expect(page).not.toHaveProperty('@odata.count');
    expect(page.value).toHaveLength(10);
  });

  test('an export reads every matching row, past $top and the maximum', async () => {
    const parsed = parseListQuery(itemsResource, {
      $filter: 'itemId ne 7',
      $orderby: 'itemId desc',
      $top: '5',
      $select: 'itemId',
    });
    const { rows } = await buildListSql(base(), parsed, ALL_TENANTS, { paged: false }).rows.execute(database.db);
    expect(rows.map((result) => (JSON.parse(result.row) as { itemId: number }).itemId)).toEqual(
      items
        .map((item) => item.itemId)
        .filter((id) => id !== 7)
        .reverse(),
    );
  });

  test('a random $filter returns exactly the rows the in-memory evaluator accepts', async () => {
    await fc.assert(
      fc.asyncProperty(exprArb(stringOrdering), async (expr) => {
        const $filter = print(expr);
        const page = await filtered($filter);
        const expected = items.filter((item) => evaluate(expr, item)).map((item) => item.itemId);
        expect(ids(page.value), $filter).toEqual(expected);
        expect(page['@odata.count']).toBe(expected.length);
      }),
      { numRuns: 250 },
    );
  });

  test("a search over several fields and the related name (the grid's OR of contains) returns exactly the rows that match", async () => {
    // Longer terms than the random filters use, so that most hold a trigram and go through the index.
    const term = fc.oneof(
      fc.constantFrom(...[...names, ...categories.map((category) => category.name)].filter((text) => text.length >= 3)),
      fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 6 }),
    );
    await fc.assert(
      fc.asyncProperty(term, fc.boolean(), async (text, withId) => {
        const needle = quote(text.toLowerCase());
        const $filter = [
          `contains(tolower(name),${needle})`,
          `contains(tolower(category/name),${needle})`,
          `contains(tolower(code),${needle})`,
          ...(withId ? ['itemId eq 7'] : []),
        ].join(' or ');
        const page = await filtered($filter);
        const holds = (value: string | null | undefined) => value?.toLowerCase().includes(text.toLowerCase()) ?? false;
        const expected = items
          .filter(
            (item) =>
              holds(item.name) || holds(item.code) || holds(item.category?.name) || (withId && item.itemId === 7),
          )
          .map((item) => item.itemId);
        expect(ids(page.value), $filter).toEqual(expected);
        expect(page['@odata.count']).toBe(expected.length);
      }),
      { numRuns: 150 },
    );
  });

  test('a statement run without the related keys looked up first (its own subquery) answers the same rows', async () => {
    await fc.assert(
      fc.asyncProperty(exprArb(stringOrdering), async (expr) => {
        const parsed = parseListQuery(itemsResource, { $filter: print(expr), $orderby: 'itemId', $select: 'itemId' });
        const { rows } = await buildListSql(base(), parsed, ALL_TENANTS, { paged: false }).rows.execute(database.db);
        const expected = items.filter((item) => evaluate(expr, item)).map((item) => item.itemId);
        expect(
          rows.map((result) => (JSON.parse(result.row) as { itemId: number }).itemId),
          print(expr),
        ).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  test('$orderby, $top and $skip page through the rows in the in-memory order', async () => {
    const sortable = fieldNames.filter((name) => stringOrdering || fields[name].kind !== 'string');
    const keyArb = fc.record({ field: fc.constantFrom(...sortable), desc: fc.boolean(), explicit: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(
        fc.option(exprArb(stringOrdering), { freq: 2 }),
        fc.array(keyArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 220 }),
        async (expr, keys, top, skip) => {
          const $orderby = keys
            .map((key) => `${key.field}${key.desc ? ' desc' : key.explicit ? ' asc' : ''}`)
            .join(', ');
          const query = {
            $orderby,
            $top: String(top),
            $skip: String(skip),
            $count: 'true',
            $select: 'itemId',
            ...(expr && { $filter: print(expr) }),
          };
          const page = await listed(database.db, itemsResource, base(), query, ALL_TENANTS);
          const matching = items.filter((item) => !expr || evaluate(expr, item));
          const sorted = sortedBy(matching, keys);
          expect(ids(page.value), JSON.stringify(query)).toEqual(
            sorted.slice(skip, skip + top).map((item) => item.itemId),
          );
          expect(page['@odata.count']).toBe(matching.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  test('a page by $skip is the same rows, expansions included, as that slice of the whole list', async () => {
    const query = { $orderby: 'qty desc, name', $expand: 'category,tags($select=name)', $filter: 'itemId ne 5' };
    const { rows } = await buildListSql(base(), parseListQuery(itemsResource, query), ALL_TENANTS, {
      paged: false,
    }).rows.execute(database.db);
    const whole = rows.map((result) => JSON.parse(result.row) as Record<string, unknown>);
    expect(whole).toHaveLength(items.length - 1);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 210 }), fc.integer({ min: 0, max: 40 }), async (skip, top) => {
        const page = await listed(
          database.db,
          itemsResource,
          base(),
          { ...query, $skip: String(skip), $top: String(top) },
          ALL_TENANTS,
        );
        expect(page.value).toEqual(whole.slice(skip, skip + top));
      }),
      { numRuns: 40 },
    );
  });

  test('following @odata.nextLink from page 1 walks the whole list in order, through ties and NULLs in the sort keys', async () => {
    const sortable = fieldNames.filter((name) => stringOrdering || fields[name].kind !== 'string');
    const keyArb = fc.record({ field: fc.constantFrom(...sortable), desc: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(
        fc.option(exprArb(stringOrdering), { freq: 3 }),
        fc.array(keyArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 45 }),
        async (expr, keys, top) => {
          const $orderby = keys.map((key) => `${key.field} ${key.desc ? 'desc' : 'asc'}`).join(',');
          let query: Record<string, string> = {
            $orderby,
            $top: String(top),
            $select: 'itemId',
            $expand: 'category($select=name)',
            ...(expr && { $filter: print(expr) }),
          };
          const walked: unknown[] = [];
          for (let pages = 0; pages < 500; pages++) {
            const page = await listed(database.db, itemsResource, base(), query, ALL_TENANTS);
            walked.push(...ids(page.value));
            expect(page.value.length).toBeLessThanOrEqual(top);
            const next = page['@odata.nextLink'];
            if (next === undefined) {
              expect(page.value.length, 'a full page links the next').toBeLessThan(top);
              break;
            }
            expect(page.value).toHaveLength(top);
            const link = new URL(next, 'http://portal.test');
            const { $skiptoken, ...rest } = Object.fromEntries(link.searchParams);
            expect(rest, 'the link keeps the request but $skip').toEqual(
              Object.fromEntries(Object.entries(query).filter(([name]) => name !== '$skiptoken')),
            );
            query = { ...rest, $skiptoken: $skiptoken ?? '' };
          }
          const expected = sortedBy(
            items.filter((item) => !expr || evaluate(expr, item)),
            keys,
          ).map((item) => item.itemId);
          expect(walked, JSON.stringify(query)).toEqual(expected);
        },
      ),
      { numRuns: 80 },
    );
  });

  test('a $skiptoken that does not decode, was changed, or was made for another $orderby is refused with a clear message', async () => {
    const first = await listed(
      database.db,
      itemsResource,
      base(),
      { $orderby: 'created desc', $top: '5' },
      ALL_TENANTS,
    );
    const token = new URL(first['@odata.nextLink'] ?? '', 'http://portal.test').searchParams.get('$skiptoken') ?? '';
    expect(token).not.toBe('');
    const refused = (query: Record<string, string>) => listed(database.db, itemsResource, base(), query, ALL_TENANTS);
    await expect(refused({ $orderby: 'created desc', $top: '5', $skiptoken: 'not a token' })).rejects.toThrow(
      /^\$skiptoken is not valid: it is not a token this list made/,
    );
    await expect(refused({ $orderby: 'created asc', $top: '5', $skiptoken: token })).rejects.toThrow(
      /^\$skiptoken is not valid: it was made for another \$orderby/,
    );
    await expect(refused({ $orderby: 'created desc', $top: '5', $skiptoken: token, $skip: '5' })).rejects.toThrow(
      '$skiptoken takes the place of $skip: give one of them',
    );
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString()) as { o: string; v: unknown[] };
    const forged = Buffer.from(JSON.stringify({ ...decoded, v: ['yesterday', decoded.v[1]] })).toString('base64url');
    await expect(refused({ $orderby: 'created desc', $top: '5', $skiptoken: forged })).rejects.toThrow(
      "$skiptoken is not valid: 'yesterday' is not a value of 'created'",
    );
    const byName = await listed(database.db, itemsResource, base(), { $orderby: 'name', $top: '5' }, ALL_TENANTS);
    const nameToken = JSON.parse(
      Buffer.from(
        new URL(byName['@odata.nextLink'] ?? '', 'http://portal.test').searchParams.get('$skiptoken') ?? '',
        'base64url',
      ).toString(),
    ) as { o: string; v: unknown[] };
    const withNul = Buffer.from(JSON.stringify({ ...nameToken, v: ['a\u0000b', nameToken.v[1]] })).toString(
      'base64url',
    );
    await expect(refused({ $orderby: 'name', $top: '5', $skiptoken: withNul })).rejects.toThrow(ListQueryError);
    await expect(refused({ $orderby: 'created desc', $top: '5', $skiptoken: token })).resolves.toMatchObject({
      value: expect.any(Array),
    });
  });

  test('$skip beyond the cap is refused, pointing to the $skiptoken of @odata.nextLink', async () => {
    await expect(
      listed(database.db, itemsResource, base(), { $skip: String(MAX_SKIP + 1) }, ALL_TENANTS),
    ).rejects.toThrow(
      `$skip must be at most ${MAX_SKIP}; for deeper pages follow @odata.nextLink, whose $skiptoken continues after the last row of a page`,
    );
    await expect(listed(database.db, itemsResource, base(), { $skip: String(MAX_SKIP) }, ALL_TENANTS)).resolves.toEqual(
      { value: [] },
    );
  });

  test('counts exactly up to the cap; past it the count is the cap, labelled a lower bound', async () => {
    await sql`CREATE TABLE many (many_id int4 PRIMARY KEY, grp int4 NOT NULL)`.execute(database.db);
    await sql`INSERT INTO many SELECT g, g % 3 FROM generate_series(1, ${LIST_COUNT_CAP + 50}) AS g`.execute(
      database.db,
    );
    const many = defineResource({
      table: 'many',
      key: 'manyId',
      fields: { manyId: { type: 'integer' }, grp: { type: 'integer' } },
    });
    const list = async (query: ListQueryInput) =>
      JSON.parse(
        await runListQuery(database.db, many, database.db.selectFrom('many').selectAll(), query, ALL_TENANTS),
      ) as unknown;
    expect(await list({ $count: 'true', $top: '2' })).toEqual({
      '@odata.count': LIST_COUNT_CAP,
      '@cfs.countIsLowerBound': true,
      value: [
        { manyId: 1, grp: 1 },
        { manyId: 2, grp: 2 },
      ],
      '@odata.nextLink': expect.stringMatching(/^\?\$count=true&\$top=2&\$skiptoken=[\w-]+$/),
    });
    expect(await list({ $count: 'true', $top: '0', $filter: 'grp eq 1' })).toEqual({
      '@odata.count': Math.ceil((LIST_COUNT_CAP + 50) / 3),
      value: [],
    });
    expect(await list({ $count: 'true', $top: '0', $filter: `manyId le ${LIST_COUNT_CAP}` })).toEqual({
      '@odata.count': LIST_COUNT_CAP,
      value: [],
    });
  });

  test('garbage and mutated options fail only with ListQueryError', async () => {
    const mutate = (valid: fc.Arbitrary<string>) =>
      fc
        .tuple(
          valid,
          fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.string({ maxLength: 2 })), { minLength: 1, maxLength: 3 }),
        )
        .map(([text, edits]) =>
          edits.reduce((current, [at, how, insert]) => {
            const position = at % (current.length + 1);
            const cut = how === 0 ? 1 : how === 1 ? 0 : how; // delete one, insert, or replace a few characters
            return current.slice(0, position) + (how === 0 ? '' : insert) + current.slice(position + cut);
          }, text),
        );
    const validFilter = exprArb(stringOrdering).map(print);
    const validExpand = validFilter.map(
      (filter) => `category($expand=items($filter=${filter};$orderby=qty desc;$top=3)),tags($select=name)`,
    );
    const tokens = fc.constantFrom(
      ...[
        '(',
        ')',
        ',',
        "'",
        "''",
        ' ',
        'eq',
        'and',
        'not',
        'in',
        'null',
        'name',
        'qty',
        'category/',
        '/',
        'tolower(',
        '$',
        '\u0000',
      ],
      ...[
        '2024-01-01',
        'T10:00Z',
        '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
        '-1.5e3',
        'category',
        'tags',
        '($filter=',
        '($select=',
      ],
      ...['$top=', '$expand=', ';', 'desc', 'asc'],
    );
    const garbage = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.array(tokens, { maxLength: 12 }).map((parts) => parts.join('')),
      mutate(validFilter),
      mutate(validExpand),
    );
    const option = fc.constantFrom(
      '$filter',
      '$orderby',
      '$select',
      '$expand',
      '$top',
      '$skip',
      '$skiptoken',
      '$count',
      '$unknown',
    );
    await fc.assert(
      fc.asyncProperty(option, garbage, async (name, value) => {
        try {
          await listed(database.db, itemsResource, base(), { [name]: value }, ALL_TENANTS);
        } catch (error) {
          if (!(error instanceof ListQueryError)) {
            throw new Error(`${name}=${JSON.stringify(value)} failed with ${String(error)}`, { cause: error });
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
