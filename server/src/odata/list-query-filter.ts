import type { CompareOp, FilterNode, LiteralOperand, Operand } from './filter-parser.js';
import type { Predicate, Value, ValueExpr } from './list-query.js';
import { ListQueryError } from './list-query-error.js';
import { resolvePath, type View } from './list-query-fields.js';
import type { FieldType } from './resource.js';

const MAX_IN_VALUES = 1000;
export const GUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** `subject` names the operand in messages: "field 'tenant/name'", "tolower(name)". */
type Resolved =
  { readonly kind: 'expr'; readonly expr: ValueExpr; readonly text: string; readonly subject: string } | LiteralOperand;

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
  if (predicate.kind === 'and' || predicate.kind === 'or')
    return predicate.operands.reduce((sum, operand) => sum + conditionsIn(operand), 0);
  if (predicate.kind === 'not') return conditionsIn(predicate.operand);
  return 1;
}

export function boundedFilter(predicate: Predicate, where: string): Predicate {
  if (conditionsIn(predicate) > MAX_FILTER_CONDITIONS)
    throw new ListQueryError(`${where} has too many conditions (at most ${MAX_FILTER_CONDITIONS})`);
  return predicate;
}

export function resolveFilter(view: View, node: FilterNode, where: string): Predicate {
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
        if (right.kind === 'literal')
          throw new ListQueryError(`The comparison at position ${node.pos} in ${where} needs a field`);
        [left, right, op] = [right, left, flipped[op]];
      }
      if (right.kind === 'expr') {
        if (!comparable(typeOf(left.expr), typeOf(right.expr))) {
          throw new ListQueryError(`${capitalized(left.subject)} cannot be compared with ${right.subject} in ${where}`);
        }
        return { kind: 'compare', op, left: left.expr, right: right.expr };
      }
      if (right.type === 'null') {
        if (op !== 'eq' && op !== 'ne')
          throw new ListQueryError(`'${op} null' is not allowed in ${where}; use eq null or ne null`);
        return { kind: 'isNull', operand: left.expr, negated: op === 'ne' };
      }
      return { kind: 'compare', op, left: left.expr, right: literalValue(left, right, where) };
    }
    case 'in': {
      const operand = resolveOperand(view, node.operand, where);
      if (operand.kind === 'literal')
        throw new ListQueryError(`'in' at position ${node.pos} in ${where} needs a field on its left`);
      if (node.values.length > MAX_IN_VALUES)
        throw new ListQueryError(`'in' takes at most ${MAX_IN_VALUES} values in ${where}`);
      const values = node.values
        .filter((value) => value.type !== 'null')
        .map((value) => literalValue(operand, value, where));
      return { kind: 'in', operand: operand.expr, values, orNull: values.length < node.values.length };
    }
    case 'operand':
      return resolveCondition(view, node.operand, where);
  }
}

/** An operand standing alone as a condition: `enabled`, `contains(name,'x')`. */
function resolveCondition(view: View, operand: Operand, where: string): Predicate {
  if (
    operand.kind === 'call' &&
    (operand.name === 'contains' || operand.name === 'startswith' || operand.name === 'endswith')
  ) {
    const [subject, pattern, ...extra] = operand.args;
    if (!subject || !pattern || extra.length > 0) {
      throw new ListQueryError(`${operand.name} takes 2 arguments (position ${operand.pos} in ${where})`);
    }
    const resolved = resolveOperand(view, subject, where);
    if (resolved.kind === 'literal' || typeOf(resolved.expr) !== 'string') {
      throw new ListQueryError(
        `The first argument of ${operand.name} must be a text field (position ${operand.pos} in ${where})`,
      );
    }
    if (pattern.kind !== 'literal' || pattern.type !== 'string') {
      throw new ListQueryError(
        `The second argument of ${operand.name} must be a quoted string (position ${operand.pos} in ${where})`,
      );
    }
    return { kind: 'match', fn: operand.name, operand: resolved.expr, value: pattern.text };
  }
  const resolved = resolveOperand(view, operand, where);
  if (resolved.kind === 'expr' && typeOf(resolved.expr) === 'boolean')
    return { kind: 'isTrue', operand: resolved.expr };
  if (resolved.kind === 'literal' && resolved.type === 'boolean')
    return { kind: 'constant', value: resolved.text === 'true' };
  const what = resolved.kind === 'expr' ? resolved.subject : literalNames[resolved.type];
  throw new ListQueryError(
    `Expected a condition at position ${operand.pos} in ${where}, but ${what} is not one; compare it with a value`,
  );
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
        throw new ListQueryError(
          `${operand.name}(…) is a condition and cannot be compared (position ${operand.pos} in ${where})`,
        );
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
  const mismatch = () =>
    new ListQueryError(`${subject} cannot be compared with ${literalNames[literal.type]} in ${where}`);
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
      if (!Number.isInteger(value))
        throw new ListQueryError(`${subject} takes whole numbers, not ${literal.text}, in ${where}`);
      return { kind: 'value', type, value };
    }
    case 'json':
      throw mismatch();
  }
}
