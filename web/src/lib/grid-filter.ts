import type { FieldKind, FieldSpec, FilterItem } from './list-query';
import {
  dateTimeLiteral,
  guidLiteral,
  isNumberText,
  isPropertyPath,
  literal,
  MINUTE_REMAINDER_MS,
  quote,
} from '@cfs/contracts/values/odata';
import { isGuid } from '@cfs/contracts/values/odata';

/**
 * A grid filter item as a `$filter` clause (spec 002 §5 "Grid filter query"): its value read from
 * whatever the grid or the URL holds, or the item left out when it cannot be read.
 */

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
    return (
      texts &&
      inList(
        lowered,
        texts.map((text) => quote(text.toLowerCase())),
      )
    );
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

/**
 * A version compared as the server orders versions (each run of digits as a number: "3.0.9" <
 * "3.0.13"), with the six comparison operators; its text matches as any text does.
 */
function versionClause(path: string, operator: string, value: unknown): string | undefined {
  const comparison = COMPARISONS[operator];
  if (!comparison) return stringClause(path, operator, value);
  const text = readText(value)?.trim();
  return text ? `${path} ${comparison} ${quote(text)}` : undefined;
}

function equalityClause(
  path: string,
  operator: string,
  value: unknown,
  read: (value: unknown) => string | undefined,
): string | undefined {
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

/** The named conditions an `isAnyOf` item chose, OR-ed (FieldSpec.conditions); names not known are left out. */
function conditionsClause(item: FilterItem, conditions: NonNullable<FieldSpec['conditions']>): string | undefined {
  if (item.operator !== 'isAnyOf' || !Array.isArray(item.value)) return undefined;
  const now = new Date();
  const clauses = item.value.flatMap((name: unknown) => {
    const condition = typeof name === 'string' && Object.hasOwn(conditions, name) ? conditions[name] : undefined;
    return condition ? [`(${condition(now)})`] : [];
  });
  if (clauses.length === 0) return undefined;
  return clauses.length === 1 ? clauses[0] : `(${clauses.join(' or ')})`;
}

/**
 * One filter item as an OData clause, or undefined when it must not be sent: no value yet,
 * an operator the kind does not have, an invalid GUID (spec 002 §5), a field that is no path.
 */
export function filterClause(item: FilterItem, spec: FieldSpec = {}): string | undefined {
  if (spec.conditions) return conditionsClause(item, spec.conditions);
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
    case 'version':
      return versionClause(path, item.operator, item.value);
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
