import { isGuid } from './ids';

/** OData literals and property paths, checked before anything is written into a query. */
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
