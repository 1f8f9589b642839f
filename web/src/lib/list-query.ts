import { EXPORT_ALL_ROWS } from '@cfs/contracts/constants';
import { isGuid } from './ids';

/**
 * One list contract for every resource (STYLE "One list contract"): a screen holds
 * `ListParams`, the server answers `{"@odata.count": n, "value": [...]}`, read as `ListResult`.
 * `toODataParams` is the one place that turns the first into the OData-style query string of
 * every list endpoint; it is pure so that its rules (spec 002 §5 "Grid filter query",
 * "GUID filters in grids") are unit-tested without a browser.
 *
 * @example
 *   const resource: ListResource = {
 *     searchFields: ['name', 'city', { path: 'locationId', kind: 'number' }],
 *     fields: { tenant: { path: 'tenant/name' } },
 *     fixedFilter: 'isEnabled eq true',
 *     expand: 'tenant',
 *   };
 *   toODataParams({ page: 1, pageSize: 10, sort: [{ field: 'tenant', direction: 'asc' }],
 *                   filters: [], search: "o'neil", exactMatch: false }, resource);
 *   // { $filter: "(isEnabled eq true) and (contains(tolower(name),'o''neil') or contains(tolower(city),'o''neil'))",
 *   //   $orderby: 'tenant/name asc', $top: '10', $skip: '10', $count: 'true', $expand: 'tenant' }
 */

export type SortDirection = 'asc' | 'desc';

export interface SortItem {
  field: string;
  direction: SortDirection;
}

/** Structurally the MUI Data Grid's `GridFilterItem`, so grid models pass through unchanged. */
export interface FilterItem {
  id?: string | number;
  field: string;
  operator: string;
  value?: unknown;
}

export interface ListParams {
  /** Zero-based page number. */
  page: number;
  pageSize: number;
  sort: readonly SortItem[];
  /** AND-ed together; an item without a usable value is left out of the query. */
  filters: readonly FilterItem[];
  search: string;
  exactMatch: boolean;
}

export interface ListResult<R> {
  total: number;
  rows: R[];
  /** More rows match than `total`: the server stopped counting at its cap ("of more than 10,000"). */
  totalIsLowerBound?: boolean;
  /** The `$skiptoken` of the page after this one, from `@odata.nextLink`: present when the page is full. */
  nextPageToken?: string;
}

/**
 * How a field is compared. `enum` is a single-select whose option values are sent as they are
 * (numbers bare, texts quoted); `guid` values are sent bare and only when valid; `date` is a
 * calendar day, `dateTime` a minute (the grid's filter inputs have no seconds).
 */
export type FieldKind = 'string' | 'number' | 'guid' | 'date' | 'dateTime' | 'boolean' | 'enum';

export interface FieldSpec {
  kind?: FieldKind;
  /** Server path when it differs from the grid field, e.g. `tenant/name` for a Tenant column. */
  path?: string;
}

/** A searched field: a text field's path, or a path with its kind. */
export type SearchField = string | { path: string; kind: 'string' | 'number' | 'guid' };

export interface ListResource {
  /** Fields the search box looks in (OR-ed). */
  searchFields?: readonly SearchField[];
  /** Kind and server path per grid field; a field not listed is a text field at its own name. */
  fields?: Readonly<Record<string, FieldSpec>>;
  /** Raw OData always AND-ed to the user's filters (tenant scope, `isEnabled eq true`…). */
  fixedFilter?: string;
  /** `$expand`, e.g. `tenant` or `tenant,workUnitType`. */
  expand?: string;
  /** `$select`: only these fields, e.g. `workUnitId,title,stateId` for a short list. */
  select?: string;
}

export type ODataParams = {
  $filter?: string;
  $orderby?: string;
  $top?: string;
  $skip?: string;
  $skiptoken?: string;
  $count?: 'true';
  $expand?: string;
  $select?: string;
};

// ---------------------------------------------------------------------------------------------
// Literals

const NUMBER_PATTERN = /^-?\d+(\.\d+)?$/;
/** Property paths (navigation with `/`). List state comes from the URL, so a field name is
 * checked before it is written into a query: nothing but a path can reach `$filter`/`$orderby`. */
const PATH_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)*$/;
/** 59.999 s: a minute-precision date-time filter covers its whole minute (spec 002 §5, 'after'). */
export const MINUTE_REMAINDER_MS = 59_999;

export function isNumberText(text: string): boolean {
  return NUMBER_PATTERN.test(text.trim());
}

export function isPropertyPath(text: string): boolean {
  return PATH_PATTERN.test(text);
}

/** A string literal: single-quoted, a quote inside doubled (`O'Neil` → `'O''Neil'`). */
export function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A bare GUID literal; throws on anything else so that a caller never sends text unquoted. */
export function guidLiteral(text: string): string {
  const trimmed = text.trim();
  if (!isGuid(trimmed)) throw new Error(`Not a GUID: ${text}`);
  return trimmed.toLowerCase();
}

/** A DateTimeOffset literal in UTC with a Z suffix (spec 002 §5): `2024-01-01T10:00:00.000Z`. */
export function dateTimeLiteral(date: Date): string {
  return date.toISOString();
}

/** Any primitive as a literal: numbers and booleans bare, dates as DateTimeOffset, text quoted. */
export function literal(value: string | number | boolean | Date | null): string {
  if (value === null) return 'null';
  if (value instanceof Date) return dateTimeLiteral(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return quote(value);
}

// ---------------------------------------------------------------------------------------------
// Value readers: anything the grid or the URL may hold → a usable value, or undefined (left out)

function readText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function readNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && isNumberText(value)) return Number(value);
  return undefined;
}

function readGuid(value: unknown): string | undefined {
  return typeof value === 'string' && isGuid(value.trim()) ? guidLiteral(value) : undefined;
}

function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

function readEnum(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return literal(value);
  if (typeof value === 'string' && value !== '') return quote(value);
  return undefined;
}

function readInstant(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value === 'string' || typeof value === 'number') {
    if (value === '') return undefined;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  return undefined;
}

/**
 * The grid's date-only input yields `new Date('YYYY-MM-DD')` (UTC midnight), and its JSON form
 * in the URL is the same instant as ISO text; the calendar day the user picked is its UTC date.
 * The filter covers that day in the user's local time, the zone dates are shown in.
 */
function readDay(value: unknown): { start: Date; end: Date } | undefined {
  let day: string | undefined;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) day = value.slice(0, 10);
  else if (value instanceof Date && !Number.isNaN(value.getTime())) day = value.toISOString().slice(0, 10);
  if (!day) return undefined;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const start = new Date(year, month - 1, date);
  if (Number.isNaN(start.getTime())) return undefined;
  const end = new Date(new Date(year, month - 1, date + 1).getTime() - 1);
  return { start, end };
}

/** A date-time filter value is a minute: from its first to its last millisecond. */
function readMinute(value: unknown): { start: Date; end: Date } | undefined {
  const instant = readInstant(value);
  if (!instant) return undefined;
  const start = new Date(Math.floor(instant.getTime() / 60_000) * 60_000);
  return { start, end: new Date(start.getTime() + MINUTE_REMAINDER_MS) };
}

function readList<T>(value: unknown, read: (item: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const items = value.map(read);
  // One unusable entry leaves the whole item out: sending the rest would silently narrow it.
  if (items.some((item) => item === undefined)) return undefined;
  return items as T[];
}

// ---------------------------------------------------------------------------------------------
// Filter clauses

const COMPARISONS: Readonly<Record<string, string>> = {
  '=': 'eq',
  '!=': 'ne',
  '>': 'gt',
  '>=': 'ge',
  '<': 'lt',
  '<=': 'le',
  is: 'eq',
  equals: 'eq',
  not: 'ne',
  doesNotEqual: 'ne',
};

function inList(path: string, literals: readonly string[]): string {
  return `${path} in (${literals.join(',')})`;
}

function emptiness(path: string, operator: string, kind: FieldKind): string | undefined {
  if (kind === 'string') {
    if (operator === 'isEmpty') return `(${path} eq null or ${path} eq '')`;
    if (operator === 'isNotEmpty') return `(${path} ne null and ${path} ne '')`;
    return undefined;
  }
  if (operator === 'isEmpty') return `${path} eq null`;
  if (operator === 'isNotEmpty') return `${path} ne null`;
  return undefined;
}

/** Texts compare case-insensitively, as the grid itself does ("standard filter is contains"). */
function stringClause(path: string, operator: string, value: unknown): string | undefined {
  const lowered = `tolower(${path})`;
  if (operator === 'isAnyOf') {
    const texts = readList(value, readText);
    return texts && inList(lowered, texts.map((text) => quote(text.toLowerCase())));
  }
  const text = readText(value);
  if (text === undefined) return undefined;
  const needle = quote(text.toLowerCase());
  switch (operator) {
    case 'contains':
      return `contains(${lowered},${needle})`;
    case 'doesNotContain':
      return `not contains(${lowered},${needle})`;
    case 'startsWith':
      return `startswith(${lowered},${needle})`;
    case 'endsWith':
      return `endswith(${lowered},${needle})`;
    case 'equals':
    case 'is':
      return `${lowered} eq ${needle}`;
    case 'doesNotEqual':
    case 'not':
      return `${lowered} ne ${needle}`;
    default:
      return undefined;
  }
}

function numberClause(path: string, operator: string, value: unknown): string | undefined {
  if (operator === 'isAnyOf') {
    const numbers = readList(value, readNumber);
    return numbers && inList(path, numbers.map(String));
  }
  const comparison = COMPARISONS[operator];
  const number = readNumber(value);
  if (!comparison || number === undefined) return undefined;
  return `${path} ${comparison} ${number}`;
}

function equalityClause(path: string, operator: string, value: unknown, read: (value: unknown) => string | undefined): string | undefined {
  if (operator === 'isAnyOf') {
    const literals = readList(value, read);
    return literals && inList(path, literals);
  }
  const comparison = COMPARISONS[operator];
  if (comparison !== 'eq' && comparison !== 'ne') return undefined;
  const text = read(value);
  return text === undefined ? undefined : `${path} ${comparison} ${text}`;
}

function booleanClause(path: string, operator: string, value: unknown): string | undefined {
  const comparison = COMPARISONS[operator];
  const flag = readBoolean(value);
  if ((comparison !== 'eq' && comparison !== 'ne') || flag === undefined) return undefined;
  return `${path} ${comparison} ${literal(flag)}`;
}

/**
 * Dates compare against the span the user picked: a calendar day for `date`, a minute for
 * `dateTime`. 'after' therefore starts after the span's last millisecond — for a date-time that
 * is the picked minute plus 59.999 s (spec 002 §5) — and 'onOrBefore' ends there.
 */
function dateClause(path: string, operator: string, value: unknown, kind: 'date' | 'dateTime'): string | undefined {
  const span = kind === 'date' ? readDay(value) : readMinute(value);
  if (!span) return undefined;
  const start = dateTimeLiteral(span.start);
  const end = dateTimeLiteral(span.end);
  switch (operator) {
    case 'is':
      return `(${path} ge ${start} and ${path} le ${end})`;
    case 'not':
      return `(${path} lt ${start} or ${path} gt ${end})`;
    case 'after':
      return `${path} gt ${end}`;
    case 'onOrAfter':
      return `${path} ge ${start}`;
    case 'before':
      return `${path} lt ${start}`;
    case 'onOrBefore':
      return `${path} le ${end}`;
    default:
      return undefined;
  }
}

/**
 * One filter item as an OData clause, or undefined when it must not be sent: no value yet,
 * an operator the kind does not have, an invalid GUID (spec 002 §5), a field that is no path.
 */
export function filterClause(item: FilterItem, spec: FieldSpec = {}): string | undefined {
  const path = spec.path ?? item.field;
  if (!isPropertyPath(path)) return undefined;
  const kind = spec.kind ?? 'string';
  const empty = emptiness(path, item.operator, kind);
  if (empty) return empty;
  switch (kind) {
    case 'string':
      return stringClause(path, item.operator, item.value);
    case 'number':
      return numberClause(path, item.operator, item.value);
    case 'guid':
      return equalityClause(path, item.operator, item.value, readGuid);
    case 'enum':
      return equalityClause(path, item.operator, item.value, readEnum);
    case 'boolean':
      return booleanClause(path, item.operator, item.value);
    case 'date':
    case 'dateTime':
      return dateClause(path, item.operator, item.value, kind);
  }
}

// ---------------------------------------------------------------------------------------------
// Search

/** Matches nothing: a search with no field that can hold the text must not list every row. */
export const MATCH_NOTHING = 'false';

/**
 * The search box across the resource's search fields, OR-ed: texts by case-insensitive contains
 * (or equality with Exact Match); numbers exactly, and only when the text is a number; GUIDs
 * only when the text is a GUID.
 */
export function searchClause(search: string, exactMatch: boolean, fields: readonly SearchField[]): string | undefined {
  const text = search.trim();
  if (text === '' || fields.length === 0) return undefined;
  const clauses: string[] = [];
  for (const field of fields) {
    const { path, kind } = typeof field === 'string' ? { path: field, kind: 'string' as const } : field;
    if (!isPropertyPath(path)) continue;
    if (kind === 'number') {
      if (isNumberText(text)) clauses.push(`${path} eq ${Number(text)}`);
    } else if (kind === 'guid') {
      if (isGuid(text)) clauses.push(`${path} eq ${guidLiteral(text)}`);
    } else if (exactMatch) {
      clauses.push(`${path} eq ${quote(text)}`);
    } else {
      clauses.push(`contains(tolower(${path}),${quote(text.toLowerCase())})`);
    }
  }
  if (clauses.length === 0) return MATCH_NOTHING;
  return clauses.length === 1 ? clauses[0] : `(${clauses.join(' or ')})`;
}

// ---------------------------------------------------------------------------------------------
// Tenant scope

/**
 * The rows of the tenant in the path, unless the user chose "All tenants" (issue 8: a list of
 * tenant-owned data defaults to the tenant in the path). A path without a usable tenant lists nothing.
 */
export function tenantScopeFilter(tenantId: string, allTenants: boolean): string | undefined {
  if (allTenants) return undefined;
  return isGuid(tenantId) ? `tenantId eq ${guidLiteral(tenantId)}` : MATCH_NOTHING;
}

/** Clauses AND-ed, each parenthesised when there are several; undefined when there are none. */
export function andFilters(...clauses: readonly (string | undefined)[]): string | undefined {
  const parts = clauses.map((clause) => clause?.trim()).filter((clause): clause is string => Boolean(clause));
  if (parts.length <= 1) return parts[0];
  return parts.map((part) => (isOneTerm(part) ? part : `(${part})`)).join(' and ');
}

// The whole query

/** `$filter`: the fixed filter, every usable filter item and the search, AND-ed. */
export function buildFilter(params: Pick<ListParams, 'filters' | 'search' | 'exactMatch'>, resource: ListResource): string | undefined {
  const parts: string[] = [];
  const fixed = resource.fixedFilter?.trim();
  if (fixed) parts.push(fixed);
  for (const item of params.filters) {
    const clause = filterClause(item, resource.fields?.[item.field]);
    if (clause) parts.push(clause);
  }
  const search = searchClause(params.search, params.exactMatch, resource.searchFields ?? []);
  if (search) parts.push(search);
  if (parts.length <= 1) return parts[0];
  // Parenthesise what is not already one term, so an `or` inside never leaks across an `and`.
  return parts.map((part) => (isOneTerm(part) ? part : `(${part})`)).join(' and ');
}

function isOneTerm(clause: string): boolean {
  // Quoted texts may hold parentheses or the words "and"/"or": blank them out first.
  const text = clause.replace(/'(?:[^']|'')*'/g, "''");
  if (text.startsWith('(') && closingParen(text) === text.length - 1) return true;
  return !/\s(and|or)\s/i.test(text);
}

/** Index of the parenthesis closing the one at index 0, or -1. */
function closingParen(text: string): number {
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    if (text[at] === '(') depth++;
    else if (text[at] === ')' && --depth === 0) return at;
  }
  return -1;
}

/** `$orderby`: `path direction` per sort item, e.g. `severityId asc, created desc`. */
export function buildOrderBy(sort: readonly SortItem[], resource: ListResource): string | undefined {
  const terms = sort
    .map((item) => ({ path: resource.fields?.[item.field]?.path ?? item.field, direction: item.direction }))
    .filter(({ path, direction }) => isPropertyPath(path) && (direction === 'asc' || direction === 'desc'))
    .map(({ path, direction }) => `${path} ${direction}`);
  return terms.length ? terms.join(', ') : undefined;
}

/**
 * The query of one page of a list (with the total count). Given the page's `skipToken` (the
 * `$skiptoken` of the previous page's `@odata.nextLink`), the page starts after that page's last
 * row instead of skipping rows: what a deep page costs the server is then what page 1 costs.
 */
export function toODataParams(params: ListParams, resource: ListResource, skipToken?: string): ODataParams {
  const query: ODataParams = { $top: String(params.pageSize) };
  if (skipToken === undefined) query.$skip = String(params.page * params.pageSize);
  else query.$skiptoken = skipToken;
  query.$count = 'true';
  const filter = buildFilter(params, resource);
  if (filter) query.$filter = filter;
  const orderBy = buildOrderBy(params.sort, resource);
  if (orderBy) query.$orderby = orderBy;
  if (resource.expand) query.$expand = resource.expand;
  if (resource.select) query.$select = resource.select;
  return query;
}

/** The `$skiptoken` an `@odata.nextLink` carries (the link is relative to the list's address). */
export function skipTokenOf(nextLink: string | undefined): string | undefined {
  if (!nextLink) return undefined;
  return new URL(nextLink, 'http://list.invalid').searchParams.get('$skiptoken') ?? undefined;
}

/**
 * The query of `{path}/Export()`: the same filter and order; "page" exports the rows on screen,
 * "all" the first `allRows` (spec 002 §9 "Exports fetch 1000 rows"; null sends no `$top`).
 */
export function toExportParams(
  params: ListParams,
  resource: ListResource,
  scope: 'page' | 'all',
  allRows: number | null = EXPORT_ALL_ROWS,
  /** The page's `$skiptoken`, when the grid reached it by one: the page exports the rows on screen. */
  skipToken?: string,
): ODataParams {
  const query = toODataParams(params, resource, skipToken);
  delete query.$count;
  if (scope === 'page') return query;
  delete query.$skip;
  delete query.$skiptoken;
  if (allRows === null) delete query.$top;
  else query.$top = String(allRows);
  return query;
}
