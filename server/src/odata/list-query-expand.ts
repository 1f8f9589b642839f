import { parseFilter } from './filter-parser.js';
import type { Expansion } from './list-query.js';
import { ListQueryError } from './list-query-error.js';
import {
  allFields,
  defaultOrder,
  integerOption,
  parseOrderBy,
  parseSelect,
  relationOf,
  relationView,
  type View,
} from './list-query-fields.js';
import { boundedFilter, resolveFilter } from './list-query-filter.js';

const MAX_EXPAND_DEPTH = 5;

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
        if (item.options.has(name))
          throw new ListQueryError(`${name} is given more than once for '${item.name}' in ${where}`);
        item.options.set(name, text.slice(start, pos).trim());
      } while (accept(';'));
      if (!accept(')')) fail(`')'`);
      skipSpaces();
    }
  } while (accept(','));
  if (pos < text.length) fail(`',' or the end`);
  return items;
}

export function parseExpand(view: View, text: string, where: string, depth: number): Expansion[] {
  return parseExpandItems(text, where).map((item) => resolveExpansion(view, item, where, depth));
}

function resolveExpansion(view: View, item: ExpandItem, where: string, depth: number): Expansion {
  if (depth > MAX_EXPAND_DEPTH)
    throw new ListQueryError(`$expand is nested too deeply (at most ${MAX_EXPAND_DEPTH} levels)`);
  const relation = relationOf(view.resource, item.name);
  if (!relation) {
    throw new ListQueryError(
      view.fields.has(item.name)
        ? `'${item.name}' is a field, not a relation, in ${where}`
        : `Unknown relation '${item.name}' in ${where}`,
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
  if (new Set(names).size !== names.length)
    throw new ListQueryError(`A relation of '${item.name}' is expanded twice in ${where}`);
  return {
    name: item.name,
    relation,
    resource: target.resource,
    fields: select === undefined ? allFields(target) : parseSelect(target, select, label('$select')),
    expand: nested,
    filter:
      filter === undefined
        ? undefined
        : boundedFilter(
            resolveFilter(target, parseFilter(filter, label('$filter')), label('$filter')),
            label('$filter'),
          ),
    orderBy:
      relation.kind === 'one'
        ? []
        : orderBy === undefined
          ? defaultOrder(target)
          : parseOrderBy(target, orderBy, label('$orderby')),
    top,
    skip: integerOption(Object.fromEntries(item.options), '$skip') ?? 0,
  };
}
