/**
 * OData literals, property paths and the search box's clause, as the web app's grids send them and
 * the server's tests and benchmark send them too (one writer of each). Nothing here imports the
 * schema library: the first screen loads it.
 */

const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER_PATTERN = /^-?\d+(\.\d+)?$/;
/** Property paths (navigation with `/`). List state comes from the URL, so a field name is
 * checked before it is written into a query: nothing but a path can reach `$filter`/`$orderby`. */
const PATH_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)*$/;
/** 59.999 s: a minute-precision date-time filter covers its whole minute (spec 002 §5, 'after'). */
export const MINUTE_REMAINDER_MS = 59_999;

/** Whether the text is a GUID, exactly (a caller holding typed text trims it first). */
export function isGuid(text: string | null | undefined): text is string {
  return typeof text === 'string' && GUID_PATTERN.test(text);
}

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

/** A searched field: a text path, or a number or GUID path searched only when the text is one. */
export type SearchField = string | { path: string; kind: 'string' | 'number' | 'guid' };

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
