import type { FieldRef, ListQueryInput, OrderKey, SelectedField } from './list-query.js';
import { ListQueryError } from './list-query-error.js';
import type { FieldDef, RelationDef, Resource } from './resource.js';
import { isFilterable, isSortable, relatedFields } from './resource.js';

export function option(query: ListQueryInput, name: string): string | undefined {
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

export function integerOption(query: ListQueryInput, name: string): number | undefined {
  const text = option(query, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value))
    throw new ListQueryError(`${name} must be a non-negative integer`);
  return value;
}

/** A resource as seen from where a path starts: its own fields, or the fields a relation exposes. */
export interface View {
  readonly resource: Resource;
  readonly fields: ReadonlyMap<string, FieldDef>;
}

export const rootView = (resource: Resource): View => ({ resource, fields: new Map(Object.entries(resource.fields)) });
export const relationView = (relation: RelationDef): View => ({
  resource: relation.resource(),
  fields: relatedFields(relation),
});

// Own properties only: a request must not reach `constructor` or `__proto__` through a declaration.
export function relationOf(resource: Resource, name: string): RelationDef | undefined {
  return Object.hasOwn(resource.relations, name) ? resource.relations[name] : undefined;
}

export function allFields(view: View): SelectedField[] {
  return [...view.fields].map(([name, field]) => ({ name, field }));
}

export function resolvePath(
  view: View,
  segments: readonly string[],
  where: string,
  use: 'filter' | 'sort' | 'read',
): FieldRef {
  const path = segments.join('/');
  let current = view;
  const relations: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const relation = relationOf(current.resource, segment);
    if (index === segments.length - 1) {
      const field = current.fields.get(segment);
      if (!field) {
        throw new ListQueryError(
          relation ? `'${path}' is a relation, not a field, in ${where}` : `Unknown field '${path}' in ${where}`,
        );
      }
      if (use === 'filter' && !isFilterable(field))
        throw new ListQueryError(`Field '${path}' cannot be used in ${where}`);
      if (use === 'sort' && !isSortable(field)) throw new ListQueryError(`Field '${path}' cannot be used in ${where}`);
      return { relations, name: segment, field };
    }
    if (!relation) throw new ListQueryError(`Unknown relation '${segments.slice(0, index + 1).join('/')}' in ${where}`);
    if (relation.kind === 'many') {
      throw new ListQueryError(
        `'${segments.slice(0, index + 1).join('/')}' is a collection and cannot be used in a path in ${where}`,
      );
    }
    relations.push(segment);
    current = relationView(relation);
  }
  throw new ListQueryError(`Empty field path in ${where}`);
}

const fieldPattern = /^[A-Za-z_]\w*(?:\/[A-Za-z_]\w*)*$/;

export function parseOrderBy(view: View, text: string, where: string): OrderKey[] {
  const keys: OrderKey[] = [];
  for (const item of text.split(',')) {
    const [path = '', direction, ...rest] = item.trim().split(/\s+/);
    if (
      !fieldPattern.test(path) ||
      rest.length > 0 ||
      (direction !== undefined && direction !== 'asc' && direction !== 'desc')
    ) {
      throw new ListQueryError(`Invalid ${where} item '${item.trim()}': expected 'field', 'field asc' or 'field desc'`);
    }
    keys.push({ ref: resolvePath(view, path.split('/'), where, 'sort'), descending: direction === 'desc' });
  }
  return withTieBreaker(view, keys);
}

export function defaultOrder(view: View): OrderKey[] {
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
  const unique = keys.filter(
    (candidate, index) => keys.findIndex((other) => sameRef(other.ref, candidate.ref)) === index,
  );
  const keyIndex = unique.findIndex((candidate) => candidate.ref.relations.length === 0 && candidate.ref.name === key);
  // Keys after the unique key cannot change the order.
  if (keyIndex >= 0) return unique.slice(0, keyIndex + 1);
  // The key follows the last key's direction, so `created desc` walks an index on (created, key) backwards.
  return [...unique, { ref: { relations: [], name: key, field }, descending: unique.at(-1)?.descending ?? false }];
}

export function parseSelect(view: View, text: string, where: string): SelectedField[] {
  const wanted = new Set<string>();
  for (const item of text.split(',').map((part) => part.trim())) {
    if (item === '*') return allFields(view);
    if (!view.fields.has(item)) {
      throw new ListQueryError(
        relationOf(view.resource, item)
          ? `'${item}' is a relation; use $expand in ${where}`
          : `Unknown field '${item}' in ${where}`,
      );
    }
    wanted.add(item);
  }
  // The key is always included; fields keep their declared order.
  return allFields(view).filter(({ name }) => wanted.has(name) || name === view.resource.key);
}
