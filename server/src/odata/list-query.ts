import { createHash } from 'node:crypto';
import { exportColumnsSchema } from '@cfs/contracts/api';
import { MAX_SKIP } from '@cfs/contracts/constants';
import type { CompareOp, FilterNode, LiteralOperand, Operand } from './filter-parser.js';
import { parseFilter } from './filter-parser.js';
import { ListQueryError } from './list-query-error.js';
import type { FieldDef, FieldType, RelationDef, Resource } from './resource.js';
import { isFilterable, isSortable, relatedFields } from './resource.js';

/** The query string of a list request, as Fastify hands it over (`request.query`). */
export type ListQueryInput = Readonly<Record<string, unknown>>;

/** A field of the row, or of a row reached through to-one relations (`tenant/name`). */
export interface FieldRef {
  readonly relations: readonly string[];
  readonly name: string;
  readonly field: FieldDef;
}

export type ValueExpr =
  | { readonly kind: 'field'; readonly ref: FieldRef }
  | { readonly kind: 'tolower' | 'toupper'; readonly arg: ValueExpr };

/**
 * A literal checked against the type it is compared with. `value` is a number for integers, decimal
 * text for numbers, a boolean for booleans and a string otherwise (GUIDs lower-cased).
 */
export interface Value {
  readonly kind: 'value';
  readonly type: Exclude<FieldType, 'json'>;
  readonly value: string | number | boolean;
}

export type MatchFunction = 'contains' | 'startswith' | 'endswith';

/**
 * A validated $filter. Semantics are two-valued, as in OData: a comparison with a missing value is
 * false (so `not` of it is true), `eq null`/`ne null` test for missing values, and `ne` is true when
 * exactly one side is null. contains/startswith/endswith ignore case (the spec's grid search).
 */
export type Predicate =
  | { readonly kind: 'and' | 'or'; readonly operands: readonly Predicate[] }
  | { readonly kind: 'not'; readonly operand: Predicate }
  | { readonly kind: 'compare'; readonly op: CompareOp; readonly left: ValueExpr; readonly right: ValueExpr | Value }
  | { readonly kind: 'isNull'; readonly operand: ValueExpr; readonly negated: boolean }
  | { readonly kind: 'in'; readonly operand: ValueExpr; readonly values: readonly Value[]; readonly orNull: boolean }
  | { readonly kind: 'match'; readonly fn: MatchFunction; readonly operand: ValueExpr; readonly value: string }
  | { readonly kind: 'isTrue'; readonly operand: ValueExpr }
  /** `$filter=true` / `$filter=false`: a boolean literal is a condition on its own. */
  | { readonly kind: 'constant'; readonly value: boolean };

export interface OrderKey {
  readonly ref: FieldRef;
  readonly descending: boolean;
}

export interface SelectedField {
  readonly name: string;
  readonly field: FieldDef;
}

/** What to read of one resource: shared by the request itself and each expanded to-many relation. */
export interface QueryShape {
  readonly resource: Resource;
  readonly fields: readonly SelectedField[];
  readonly expand: readonly Expansion[];
  readonly filter: Predicate | undefined;
  /** Always ends with the resource's key, so paging is stable. */
  readonly orderBy: readonly OrderKey[];
  readonly top: number | undefined;
  readonly skip: number;
}

export interface Expansion extends QueryShape {
  readonly name: string;
  readonly relation: RelationDef;
}

/** A validated list request: run it with `runListQuery`, or build its SQL with `buildListSql` (exports). */
export interface ParsedListQuery extends QueryShape {
  readonly top: number;
  readonly count: boolean;
  /**
   * From `$skiptoken`: the order-key values (as PostgreSQL writes them as text; null for a
   * missing value) of the row the page starts after, one per `orderBy` key. `skip` is then 0.
   */
  readonly after: readonly (string | null)[] | undefined;
}

const MAX_IN_VALUES = 1000;
const MAX_EXPAND_DEPTH = 5;
const GUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const knownOptions = new Set(['$filter', '$orderby', '$top', '$skip', '$skiptoken', '$count', '$expand', '$select']);

/**
 * Validates the OData-style options of a list request against a resource. Throws ListQueryError
 * (→ 400) for anything the caller got wrong; other query parameters are left to the route.
 */
export function parseListQuery(resource: Resource, query: ListQueryInput): ParsedListQuery {
  for (const name of Object.keys(query)) {
    if (name.startsWith('$') && !knownOptions.has(name)) throw new ListQueryError(`Unknown query option '${name}'`);
  }
  const view = rootView(resource);
  const top = integerOption(query, '$top') ?? resource.defaultTop;
  if (top > resource.maxTop) throw new ListQueryError(`$top must be at most ${resource.maxTop}`);
  const countText = option(query, '$count');
  if (countText !== undefined && countText !== 'true' && countText !== 'false') {
    throw new ListQueryError(`$count must be true or false`);
  }
  const filter = option(query, '$filter');
  const orderBy = option(query, '$orderby');
  const select = option(query, '$select');
  const expand = option(query, '$expand');
  const skip = integerOption(query, '$skip') ?? 0;
  if (skip > MAX_SKIP) {
    throw new ListQueryError(`$skip must be at most ${MAX_SKIP}; for deeper pages follow @odata.nextLink, whose $skiptoken continues after the last row of a page`);
  }
  const skipToken = option(query, '$skiptoken');
  if (skipToken !== undefined && option(query, '$skip') !== undefined) throw new ListQueryError('$skiptoken takes the place of $skip: give one of them');
  const order = orderBy === undefined ? defaultOrder(view) : parseOrderBy(view, orderBy, '$orderby');
  return {
    resource,
    fields: select === undefined ? allFields(view) : parseSelect(view, select, '$select'),
    expand: expand === undefined ? [] : parseExpand(view, expand, '$expand', 1),
    filter: filter === undefined ? undefined : boundedFilter(resolveFilter(view, parseFilter(filter), '$filter'), '$filter'),
    orderBy: order,
    top,
    skip,
    count: countText === 'true',
    after: skipToken === undefined ? undefined : readSkipToken(resource, order, skipToken),
  };
}

// ---- $skiptoken ---------------------------------------------------------------------------------

/**
 * What a token is tied to: the resource and its whole order, directions included. A token made
 * for another list or order would start the page at a meaningless place, so it is refused.
 */
/** By order: a list's pages all sign with the same parsed order. */
const orderSignatures = new WeakMap<readonly OrderKey[], string>();

function orderSignature(resource: Resource, order: readonly OrderKey[]): string {
  const known = orderSignatures.get(order);
  if (known !== undefined) return known;
  const text = [resource.table, ...order.map((key) => `${[...key.ref.relations, key.ref.name].join('/')} ${key.descending ? 'desc' : 'asc'}`)].join(',');
  const signature = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  orderSignatures.set(order, signature);
  return signature;
}

/**
 * The `$skiptoken` of the page after a row: the row's order-key values (PostgreSQL's text of each,
 * null for a missing value), tied to the order they were read for. Opaque to clients, which only
 * hand it back (`@odata.nextLink`); it holds no secret, and what it holds is checked when it returns.
 */
export function makeSkipToken(parsed: Pick<ParsedListQuery, 'resource' | 'orderBy'>, values: readonly (string | null)[]): string {
  return Buffer.from(JSON.stringify({ o: orderSignature(parsed.resource, parsed.orderBy), v: values })).toString('base64url');
}

/** A value's text as PostgreSQL writes it, per type: anything else did not come from a list answer. */
const valueText: Partial<Record<FieldType, RegExp>> = {
  integer: /^-?\d{1,19}$/,
  number: /^(-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?|-?Infinity|NaN)$/i,
  boolean: /^(true|false)$/,
  guid: GUID_TEXT,
  date: /^\d{4,}-\d\d-\d\d( BC)?$/,
  datetime: /^\d{4,}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?([+-]\d\d(:\d\d){0,2})?( BC)?$/,
};

function readSkipToken(resource: Resource, order: readonly OrderKey[], token: string): (string | null)[] {
  const invalid = (why: string) => new ListQueryError(`$skiptoken is not valid: ${why}. Take it from @odata.nextLink of the previous page, or start again with $skip`);
  let decoded: unknown;
  try {
    decoded = /^[A-Za-z0-9_-]+$/.test(token) ? JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) : undefined;
  } catch {
    decoded = undefined;
  }
  if (typeof decoded !== 'object' || decoded === null || !('o' in decoded) || !('v' in decoded) || !Array.isArray(decoded.v)) {
    throw invalid('it is not a token this list made');
  }
  if (decoded.o !== orderSignature(resource, order)) throw invalid('it was made for another $orderby');
  const values: unknown[] = decoded.v;
  if (values.length !== order.length) throw invalid('it was made for another $orderby');
  return order.map((key, index) => {
    const value = values[index];
    if (value === null && index < order.length - 1) return null;
    // No text the database wrote holds a NUL, and no parameter may.
    if (typeof value !== 'string' || value.length > 10_000 || value.includes('\u0000')) throw invalid(`the value for '${key.ref.name}' is missing`);
    const pattern = valueText[key.ref.field.type];
    if (pattern && !pattern.test(value)) throw invalid(`'${value}' is not a value of '${key.ref.name}'`);
    return value;
  });
}

function option(query: ListQueryInput, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw new ListQueryError(`${name} is given more than once`);
  // Routes that validated the query with zod first may hand over numbers and booleans.
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    throw new ListQueryError(`${name} must be text`);
  }
  const text = String(raw).trim();
  return text === '' ? undefined : text;
}

function integerOption(query: ListQueryInput, name: string): number | undefined {
  const text = option(query, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new ListQueryError(`${name} must be a non-negative integer`);
  return value;
}

// ---- fields, relations and paths ------------------------------------------------------------------

/** A resource as seen from where a path starts: its own fields, or the fields a relation exposes. */
interface View {
  readonly resource: Resource;
  readonly fields: ReadonlyMap<string, FieldDef>;
}

const rootView = (resource: Resource): View => ({ resource, fields: new Map(Object.entries(resource.fields)) });
const relationView = (relation: RelationDef): View => ({ resource: relation.resource(), fields: relatedFields(relation) });

// Own properties only: a request must not reach `constructor` or `__proto__` through a declaration.
function relationOf(resource: Resource, name: string): RelationDef | undefined {
  return Object.hasOwn(resource.relations, name) ? resource.relations[name] : undefined;
}

function allFields(view: View): SelectedField[] {
  return [...view.fields].map(([name, field]) => ({ name, field }));
}

function resolvePath(view: View, segments: readonly string[], where: string, use: 'filter' | 'sort' | 'read'): FieldRef {
  const path = segments.join('/');
  let current = view;
  const relations: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const relation = relationOf(current.resource, segment);
    if (index === segments.length - 1) {
      const field = current.fields.get(segment);
      if (!field) {
        throw new ListQueryError(relation ? `'${path}' is a relation, not a field, in ${where}` : `Unknown field '${path}' in ${where}`);
      }
      if (use === 'filter' && !isFilterable(field)) throw new ListQueryError(`Field '${path}' cannot be used in ${where}`);
      if (use === 'sort' && !isSortable(field)) throw new ListQueryError(`Field '${path}' cannot be used in ${where}`);
      return { relations, name: segment, field };
    }
    if (!relation) throw new ListQueryError(`Unknown relation '${segments.slice(0, index + 1).join('/')}' in ${where}`);
    if (relation.kind === 'many') {
      throw new ListQueryError(`'${segments.slice(0, index + 1).join('/')}' is a collection and cannot be used in a path in ${where}`);
    }
    relations.push(segment);
    current = relationView(relation);
  }
  throw new ListQueryError(`Empty field path in ${where}`);
}

const fieldPattern = /^[A-Za-z_]\w*(?:\/[A-Za-z_]\w*)*$/;

function parseOrderBy(view: View, text: string, where: string): OrderKey[] {
  const keys: OrderKey[] = [];
  for (const item of text.split(',')) {
    const [path = '', direction, ...rest] = item.trim().split(/\s+/);
    if (!fieldPattern.test(path) || rest.length > 0 || (direction !== undefined && direction !== 'asc' && direction !== 'desc')) {
      throw new ListQueryError(`Invalid ${where} item '${item.trim()}': expected 'field', 'field asc' or 'field desc'`);
    }
    keys.push({ ref: resolvePath(view, path.split('/'), where, 'sort'), descending: direction === 'desc' });
  }
  return withTieBreaker(view, keys);
}

function defaultOrder(view: View): OrderKey[] {
  try {
    return parseOrderBy(view, view.resource.defaultOrderBy, '$orderby');
  } catch (error) {
    throw new Error(`'${view.resource.table}' declares an invalid defaultOrderBy`, { cause: error });
  }
}

function withTieBreaker(view: View, keys: readonly OrderKey[]): OrderKey[] {
  const { key, fields } = view.resource;
  const field = fields[key];
  if (!field) throw new Error(`'${view.resource.table}' declares the unknown key '${key}'`);
  const sameRef = (a: FieldRef, b: FieldRef) => a.name === b.name && a.relations.join('/') === b.relations.join('/');
  const unique = keys.filter((candidate, index) => keys.findIndex((other) => sameRef(other.ref, candidate.ref)) === index);
  const keyIndex = unique.findIndex((candidate) => candidate.ref.relations.length === 0 && candidate.ref.name === key);
  // Keys after the unique key cannot change the order.
  if (keyIndex >= 0) return unique.slice(0, keyIndex + 1);
  // The key follows the last key's direction, so `created desc` walks an index on (created, key) backwards.
  return [...unique, { ref: { relations: [], name: key, field }, descending: unique.at(-1)?.descending ?? false }];
}

function parseSelect(view: View, text: string, where: string): SelectedField[] {
  const wanted = new Set<string>();
  for (const item of text.split(',').map((part) => part.trim())) {
    if (item === '*') return allFields(view);
    if (!view.fields.has(item)) {
      throw new ListQueryError(
        relationOf(view.resource, item) ? `'${item}' is a relation; use $expand in ${where}` : `Unknown field '${item}' in ${where}`,
      );
    }
    wanted.add(item);
  }
  // The key is always included; fields keep their declared order.
  return allFields(view).filter(({ name }) => wanted.has(name) || name === view.resource.key);
}

// ---- CSV export columns ------------------------------------------------------------------------

/** One column of a CSV export: its header and the field its cells hold. */
export interface ExportColumn {
  readonly title: string;
  readonly ref: FieldRef;
}

/**
 * The columns of a CSV export. `columns` (JSON, `exportColumnsSchema`) names them as the grid
 * shows them: field paths through to-one relations and their titles, in the grid's order.
 * Without it the export holds the query's own shape — the selected fields, then each expanded
 * to-one relation's fields — under their API paths (`tenant/name`).
 */
export function parseExportColumns(parsed: ParsedListQuery, query: ListQueryInput): ExportColumn[] {
  const text = option(query, 'columns');
  const view = rootView(parsed.resource);
  if (text === undefined) return shapeColumns(parsed, []);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ListQueryError(`columns must be JSON: [{"field":"name","title":"Name"}]`);
  }
  const columns = exportColumnsSchema.safeParse(json);
  if (!columns.success) {
    const issue = columns.error.issues[0];
    throw new ListQueryError(`Invalid columns${issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''}: ${issue?.message ?? 'expected [{"field","title"}]'}`);
  }
  return columns.data.map(({ field, title }) => ({ title, ref: resolvePath(view, field.split('/'), 'columns', 'read') }));
}

function shapeColumns(shape: Pick<QueryShape, 'fields' | 'expand'>, relations: readonly string[]): ExportColumn[] {
  const own = shape.fields.map(({ name, field }) => ({ title: [...relations, name].join('/'), ref: { relations, name, field } }));
  const related = shape.expand.flatMap((expansion) => {
    if (expansion.relation.kind === 'many') {
      throw new ListQueryError(`'${[...relations, expansion.name].join('/')}' is a collection and cannot be a CSV column; leave it out of $expand`);
    }
    return shapeColumns(expansion, [...relations, expansion.name]);
  });
  return [...own, ...related];
}

// ---- $expand ------------------------------------------------------------------------------------

interface ExpandItem {
  name: string;
  options: Map<string, string>;
  nested: ExpandItem[];
}

/**
 * `a,b/c,d($select=x;$filter=y eq 1;$expand=e($select=z))`. `b/c` expands b and, inside it, c.
 * Option values run to the next ';' or ')' outside quotes and parentheses.
 */
function parseExpandItems(text: string, where: string): ExpandItem[] {
  const items: ExpandItem[] = [];
  let pos = 0;
  const fail = (expected: string): never => {
    const found = pos >= text.length ? 'the end' : `'${text.slice(pos, pos + 20)}'`;
    throw new ListQueryError(`Expected ${expected} at position ${pos} in ${where}, found ${found}`);
  };
  const skipSpaces = () => {
    while (/\s/.test(text[pos] ?? '')) pos++;
  };
  const identifier = (): string => {
    skipSpaces();
    const name = /^[A-Za-z_]\w*/.exec(text.slice(pos))?.[0] ?? fail('a relation name');
    pos += name.length;
    return name;
  };
  const accept = (char: string): boolean => {
    if (text[pos] !== char) return false;
    pos++;
    return true;
  };
  const merge = (into: ExpandItem[], name: string): ExpandItem => {
    const existing = into.find((item) => item.name === name);
    if (existing) return existing;
    const item: ExpandItem = { name, options: new Map(), nested: [] };
    into.push(item);
    return item;
  };
  do {
    let item = merge(items, identifier());
    skipSpaces();
    while (accept('/')) {
      item = merge(item.nested, identifier());
      skipSpaces();
    }
    if (accept('(')) {
      do {
        skipSpaces();
        const name = /^\$[a-z]+/.exec(text.slice(pos))?.[0] ?? fail(`an option such as $select or $filter`);
        pos += name.length;
        skipSpaces();
        if (!accept('=')) fail(`'='`);
        const start = pos;
        let depth = 0;
        let quoted = false; // '' inside a string toggles twice
        for (; pos < text.length; pos++) {
          const char = text[pos];
          if (char === "'") quoted = !quoted;
          if (quoted) continue;
          if (char === '(') depth++;
          if (char === ')' && depth === 0) break;
          if (char === ')') depth--;
          if (char === ';' && depth === 0) break;
        }
        if (item.options.has(name)) throw new ListQueryError(`${name} is given more than once for '${item.name}' in ${where}`);
        item.options.set(name, text.slice(start, pos).trim());
      } while (accept(';'));
      if (!accept(')')) fail(`')'`);
      skipSpaces();
    }
  } while (accept(','));
  if (pos < text.length) fail(`',' or the end`);
  return items;
}

function parseExpand(view: View, text: string, where: string, depth: number): Expansion[] {
  return parseExpandItems(text, where).map((item) => resolveExpansion(view, item, where, depth));
}

function resolveExpansion(view: View, item: ExpandItem, where: string, depth: number): Expansion {
  if (depth > MAX_EXPAND_DEPTH) throw new ListQueryError(`$expand is nested too deeply (at most ${MAX_EXPAND_DEPTH} levels)`);
  const relation = relationOf(view.resource, item.name);
  if (!relation) {
    throw new ListQueryError(
      view.fields.has(item.name) ? `'${item.name}' is a field, not a relation, in ${where}` : `Unknown relation '${item.name}' in ${where}`,
    );
  }
  const target = relationView(relation);
  const label = (name: string) => `${name} of $expand '${item.name}'`;
  for (const name of item.options.keys()) {
    if (!['$select', '$expand', '$filter', '$orderby', '$top', '$skip'].includes(name)) {
      throw new ListQueryError(`Unknown option '${name}' for '${item.name}' in ${where}`);
    }
    if (relation.kind === 'one' && name !== '$select' && name !== '$expand') {
      throw new ListQueryError(`${name} needs a collection, but '${item.name}' is a single row, in ${where}`);
    }
  }
  const text = (name: string): string | undefined => item.options.get(name) || undefined;
  const select = text('$select');
  const filter = text('$filter');
  const orderBy = text('$orderby');
  const top = integerOption(Object.fromEntries(item.options), '$top');
  if (top !== undefined && top > target.resource.maxTop) {
    throw new ListQueryError(`${label('$top')} must be at most ${target.resource.maxTop}`);
  }
  const nestedText = text('$expand');
  const nested = [
    ...item.nested.map((child) => resolveExpansion(target, child, where, depth + 1)),
    ...(nestedText === undefined ? [] : parseExpand(target, nestedText, label('$expand'), depth + 1)),
  ];
  const names = nested.map((expansion) => expansion.name);
  if (new Set(names).size !== names.length) throw new ListQueryError(`A relation of '${item.name}' is expanded twice in ${where}`);
  return {
    name: item.name,
    relation,
    resource: target.resource,
    fields: select === undefined ? allFields(target) : parseSelect(target, select, label('$select')),
    expand: nested,
    filter: filter === undefined ? undefined : boundedFilter(resolveFilter(target, parseFilter(filter, label('$filter')), label('$filter')), label('$filter')),
    orderBy: relation.kind === 'one' ? [] : orderBy === undefined ? defaultOrder(target) : parseOrderBy(target, orderBy, label('$orderby')),
    top,
    skip: integerOption(Object.fromEntries(item.options), '$skip') ?? 0,
  };
}

// ---- $filter ------------------------------------------------------------------------------------

/** `subject` names the operand in messages: "field 'tenant/name'", "tolower(name)". */
type Resolved = { readonly kind: 'expr'; readonly expr: ValueExpr; readonly text: string; readonly subject: string } | LiteralOperand;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const literalNames: Record<LiteralOperand['type'], string> = {
  string: 'a string',
  number: 'a number',
  guid: 'a GUID',
  datetime: 'a date-time',
  date: 'a date',
  boolean: 'a boolean',
  null: 'null',
};

const flipped: Record<CompareOp, CompareOp> = { eq: 'eq', ne: 'ne', gt: 'lt', ge: 'le', lt: 'gt', le: 'ge' };

function typeOf(expr: ValueExpr): FieldType {
  return expr.kind === 'field' ? expr.ref.field.type : 'string';
}

const comparable = (a: FieldType, b: FieldType) => a === b || (isNumeric(a) && isNumeric(b));
const isNumeric = (type: FieldType) => type === 'integer' || type === 'number';

/**
 * The most conditions one filter may hold. The grid's own filters stay far below it; a filter of
 * hundreds of `contains` terms would scan for minutes and is refused before it reaches the database.
 */
export const MAX_FILTER_CONDITIONS = 64;

function conditionsIn(predicate: Predicate): number {
  if (predicate.kind === 'and' || predicate.kind === 'or') return predicate.operands.reduce((sum, operand) => sum + conditionsIn(operand), 0);
  if (predicate.kind === 'not') return conditionsIn(predicate.operand);
  return 1;
}

function boundedFilter(predicate: Predicate, where: string): Predicate {
  if (conditionsIn(predicate) > MAX_FILTER_CONDITIONS) throw new ListQueryError(`${where} has too many conditions (at most ${MAX_FILTER_CONDITIONS})`);
  return predicate;
}

function resolveFilter(view: View, node: FilterNode, where: string): Predicate {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, operands: node.operands.map((operand) => resolveFilter(view, operand, where)) };
    case 'not':
      return { kind: 'not', operand: resolveFilter(view, node.operand, where) };
    case 'compare': {
      let left = resolveOperand(view, node.left, where);
      let right = resolveOperand(view, node.right, where);
      let op = node.op;
      if (left.kind === 'literal') {
        if (right.kind === 'literal') throw new ListQueryError(`The comparison at position ${node.pos} in ${where} needs a field`);
        [left, right, op] = [right, left, flipped[op]];
      }
      if (right.kind === 'expr') {
        if (!comparable(typeOf(left.expr), typeOf(right.expr))) {
          throw new ListQueryError(`${capitalized(left.subject)} cannot be compared with ${right.subject} in ${where}`);
        }
        return { kind: 'compare', op, left: left.expr, right: right.expr };
      }
      if (right.type === 'null') {
        if (op !== 'eq' && op !== 'ne') throw new ListQueryError(`'${op} null' is not allowed in ${where}; use eq null or ne null`);
        return { kind: 'isNull', operand: left.expr, negated: op === 'ne' };
      }
      return { kind: 'compare', op, left: left.expr, right: literalValue(left, right, where) };
    }
    case 'in': {
      const operand = resolveOperand(view, node.operand, where);
      if (operand.kind === 'literal') throw new ListQueryError(`'in' at position ${node.pos} in ${where} needs a field on its left`);
      if (node.values.length > MAX_IN_VALUES) throw new ListQueryError(`'in' takes at most ${MAX_IN_VALUES} values in ${where}`);
      const values = node.values.filter((value) => value.type !== 'null').map((value) => literalValue(operand, value, where));
      return { kind: 'in', operand: operand.expr, values, orNull: values.length < node.values.length };
    }
    case 'operand':
      return resolveCondition(view, node.operand, where);
  }
}

/** An operand standing alone as a condition: `enabled`, `contains(name,'x')`. */
function resolveCondition(view: View, operand: Operand, where: string): Predicate {
  if (operand.kind === 'call' && (operand.name === 'contains' || operand.name === 'startswith' || operand.name === 'endswith')) {
    const [subject, pattern, ...extra] = operand.args;
    if (!subject || !pattern || extra.length > 0) {
      throw new ListQueryError(`${operand.name} takes 2 arguments (position ${operand.pos} in ${where})`);
    }
    const resolved = resolveOperand(view, subject, where);
    if (resolved.kind === 'literal' || typeOf(resolved.expr) !== 'string') {
      throw new ListQueryError(`The first argument of ${operand.name} must be a text field (position ${operand.pos} in ${where})`);
    }
    if (pattern.kind !== 'literal' || pattern.type !== 'string') {
      throw new ListQueryError(`The second argument of ${operand.name} must be a quoted string (position ${operand.pos} in ${where})`);
    }
    return { kind: 'match', fn: operand.name, operand: resolved.expr, value: pattern.text };
  }
  const resolved = resolveOperand(view, operand, where);
  if (resolved.kind === 'expr' && typeOf(resolved.expr) === 'boolean') return { kind: 'isTrue', operand: resolved.expr };
  if (resolved.kind === 'literal' && resolved.type === 'boolean') return { kind: 'constant', value: resolved.text === 'true' };
  const what = resolved.kind === 'expr' ? resolved.subject : literalNames[resolved.type];
  throw new ListQueryError(`Expected a condition at position ${operand.pos} in ${where}, but ${what} is not one; compare it with a value`);
}

function resolveOperand(view: View, operand: Operand, where: string): Resolved {
  switch (operand.kind) {
    case 'literal':
      return operand;
    case 'path': {
      const text = operand.segments.join('/');
      const ref = resolvePath(view, operand.segments, where, 'filter');
      return { kind: 'expr', expr: { kind: 'field', ref }, text, subject: `field '${text}'` };
    }
    case 'call': {
      if (operand.name === 'contains' || operand.name === 'startswith' || operand.name === 'endswith') {
        throw new ListQueryError(`${operand.name}(…) is a condition and cannot be compared (position ${operand.pos} in ${where})`);
      }
      if (operand.name !== 'tolower' && operand.name !== 'toupper') {
        throw new ListQueryError(`Unknown function '${operand.name}' in ${where}`);
      }
      const [arg, ...extra] = operand.args;
      const resolved = arg && extra.length === 0 ? resolveOperand(view, arg, where) : undefined;
      if (!resolved || resolved.kind === 'literal' || typeOf(resolved.expr) !== 'string') {
        throw new ListQueryError(`${operand.name} takes one text field (position ${operand.pos} in ${where})`);
      }
      const text = `${operand.name}(${resolved.text})`;
      return { kind: 'expr', expr: { kind: operand.name, arg: resolved.expr }, text, subject: text };
    }
  }
}

function literalValue(target: Extract<Resolved, { kind: 'expr' }>, literal: LiteralOperand, where: string): Value {
  const type = typeOf(target.expr);
  const subject = capitalized(target.subject);
  const mismatch = () => new ListQueryError(`${subject} cannot be compared with ${literalNames[literal.type]} in ${where}`);
  switch (type) {
    case 'string':
    case 'datetime':
    case 'date':
      if (literal.type !== type) throw mismatch();
      return { kind: 'value', type, value: literal.text };
    case 'guid':
      if (literal.type !== 'guid' && literal.type !== 'string') throw mismatch();
      if (!GUID_TEXT.test(literal.text)) {
        throw new ListQueryError(`'${literal.text}' is not a valid GUID for ${target.subject} in ${where}`);
      }
      return { kind: 'value', type, value: literal.text.toLowerCase() };
    case 'boolean':
      if (literal.type !== 'boolean') throw mismatch();
      return { kind: 'value', type, value: literal.text === 'true' };
    case 'integer':
    case 'number': {
      if (literal.type !== 'number') throw mismatch();
      const value = Number(literal.text);
      if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) {
        throw new ListQueryError(`The number ${literal.text} is out of range in ${where}`);
      }
      // Normalised through a double: '1e-400' as written would overflow a float8 column's cast.
      if (type === 'number') return { kind: 'value', type, value: String(value) };
      if (!Number.isInteger(value)) throw new ListQueryError(`${subject} takes whole numbers, not ${literal.text}, in ${where}`);
      return { kind: 'value', type, value };
    }
    case 'json':
      throw mismatch();
  }
}
