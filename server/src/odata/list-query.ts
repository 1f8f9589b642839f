import { exportColumnsSchema } from '@cfs/contracts/api';
import { MAX_SKIP } from '@cfs/contracts/constants';
import type { CompareOp } from './filter-parser.js';
import { parseFilter } from './filter-parser.js';
import { parseExpand } from './list-query-expand.js';
import {
  allFields,
  defaultOrder,
  integerOption,
  option,
  parseOrderBy,
  parseSelect,
  resolvePath,
  rootView,
} from './list-query-fields.js';
import { boundedFilter, resolveFilter } from './list-query-filter.js';
import { readSkipToken } from './list-query-skip-token.js';
import { ListQueryError } from './list-query-error.js';
import type { FieldDef, FieldType, RelationDef, Resource } from './resource.js';

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
    throw new ListQueryError(
      `$skip must be at most ${MAX_SKIP}; for deeper pages follow @odata.nextLink, whose $skiptoken continues after the last row of a page`,
    );
  }
  const skipToken = option(query, '$skiptoken');
  if (skipToken !== undefined && option(query, '$skip') !== undefined)
    throw new ListQueryError('$skiptoken takes the place of $skip: give one of them');
  const order = orderBy === undefined ? defaultOrder(view) : parseOrderBy(view, orderBy, '$orderby');
  return {
    resource,
    fields: select === undefined ? allFields(view) : parseSelect(view, select, '$select'),
    expand: expand === undefined ? [] : parseExpand(view, expand, '$expand', 1),
    filter:
      filter === undefined ? undefined : boundedFilter(resolveFilter(view, parseFilter(filter), '$filter'), '$filter'),
    orderBy: order,
    top,
    skip,
    count: countText === 'true',
    after: skipToken === undefined ? undefined : readSkipToken(resource, order, skipToken),
  };
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
    throw new ListQueryError(
      `Invalid columns${issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''}: ${issue?.message ?? 'expected [{"field","title"}]'}`,
    );
  }
  return columns.data.map(({ field, title }) => ({
    title,
    ref: resolvePath(view, field.split('/'), 'columns', 'read'),
  }));
}

function shapeColumns(shape: Pick<QueryShape, 'fields' | 'expand'>, relations: readonly string[]): ExportColumn[] {
  const own = shape.fields.map(({ name, field }) => ({
    title: [...relations, name].join('/'),
    ref: { relations, name, field },
  }));
  const related = shape.expand.flatMap((expansion) => {
    if (expansion.relation.kind === 'many') {
      throw new ListQueryError(
        `'${[...relations, expansion.name].join('/')}' is a collection and cannot be a CSV column; leave it out of $expand`,
      );
    }
    return shapeColumns(expansion, [...relations, expansion.name]);
  });
  return [...own, ...related];
}
