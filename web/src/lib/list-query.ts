import { EXPORT_ALL_ROWS } from '@cfs/contracts/constants';
import { filterClause } from './grid-filter';
import {
  guidLiteral,
  isGuid,
  isPropertyPath,
  MATCH_NOTHING,
  searchClause,
  type SearchField,
} from '@cfs/contracts/values/odata';

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
 * calendar day, `dateTime` a minute (the grid's filter inputs have no seconds); a `version` is
 * compared as the server orders versions (`version lt '3.0.13'`).
 */
export type FieldKind = 'string' | 'number' | 'version' | 'guid' | 'date' | 'dateTime' | 'boolean' | 'enum';

export interface FieldSpec {
  kind?: FieldKind;
  /** Server path when it differs from the grid field, e.g. `tenant/name` for a Tenant column. */
  path?: string;
  /**
   * A field of named conditions: an `isAnyOf` item's values name them, and each one's OData is
   * built when the list is read (so "due within an hour" moves with the clock), OR-ed.
   */
  conditions?: Readonly<Record<string, (now: Date) => string>>;
}

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
export function buildFilter(
  params: Pick<ListParams, 'filters' | 'search' | 'exactMatch'>,
  resource: ListResource,
): string | undefined {
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
