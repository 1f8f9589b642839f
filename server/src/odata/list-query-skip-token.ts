import { createHash } from 'node:crypto';
import { GUID_TEXT } from './list-query-filter.js';
import { ListQueryError } from './list-query-error.js';
import type { OrderKey, ParsedListQuery } from './list-query.js';
import type { FieldType, Resource } from './resource.js';

/**
 * What a token is tied to: the resource and its whole order, directions included. A token made
 * for another list or order would start the page at a meaningless place, so it is refused.
 */
/** By order: a list's pages all sign with the same parsed order. */
const orderSignatures = new WeakMap<readonly OrderKey[], string>();

function orderSignature(resource: Resource, order: readonly OrderKey[]): string {
  const known = orderSignatures.get(order);
  if (known !== undefined) return known;
  const text = [
    resource.table,
    ...order.map((key) => `${[...key.ref.relations, key.ref.name].join('/')} ${key.descending ? 'desc' : 'asc'}`),
  ].join(',');
  const signature = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  orderSignatures.set(order, signature);
  return signature;
}

/**
 * The `$skiptoken` of the page after a row: the row's order-key values (PostgreSQL's text of each,
 * null for a missing value), tied to the order they were read for. Opaque to clients, which only
 * hand it back (`@odata.nextLink`); it holds no secret, and what it holds is checked when it returns.
 */
export function makeSkipToken(
  parsed: Pick<ParsedListQuery, 'resource' | 'orderBy'>,
  values: readonly (string | null)[],
): string {
  return Buffer.from(JSON.stringify({ o: orderSignature(parsed.resource, parsed.orderBy), v: values })).toString(
    'base64url',
  );
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

export function readSkipToken(resource: Resource, order: readonly OrderKey[], token: string): (string | null)[] {
  const invalid = (why: string) =>
    new ListQueryError(
      `$skiptoken is not valid: ${why}. Take it from @odata.nextLink of the previous page, or start again with $skip`,
    );
  let decoded: unknown;
  try {
    decoded = /^[A-Za-z0-9_-]+$/.test(token) ? JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) : undefined;
  } catch {
    decoded = undefined;
  }
  if (
    typeof decoded !== 'object' ||
    decoded === null ||
    !('o' in decoded) ||
    !('v' in decoded) ||
    !Array.isArray(decoded.v)
  ) {
    throw invalid('it is not a token this list made');
  }
  if (decoded.o !== orderSignature(resource, order)) throw invalid('it was made for another $orderby');
  const values: unknown[] = decoded.v;
  if (values.length !== order.length) throw invalid('it was made for another $orderby');
  return order.map((key, index) => {
    const value = values[index];
    if (value === null && index < order.length - 1) return null;
    // No text the database wrote holds a NUL, and no parameter may.
    if (typeof value !== 'string' || value.length > 10_000 || value.includes('\u0000'))
      throw invalid(`the value for '${key.ref.name}' is missing`);
    const pattern = valueText[key.ref.field.type];
    if (pattern && !pattern.test(value)) throw invalid(`'${value}' is not a value of '${key.ref.name}'`);
    return value;
  });
}
