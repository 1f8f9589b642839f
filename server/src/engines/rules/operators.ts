import { OPERATORS, type OperatorId } from '@cfs/contracts/monitoring';
import { compilePattern } from './pattern.js';
import { keepBounded } from '../../bounded-map.js';

/**
 * The fourteen condition operators (spec 002 §3), as the engine and the Test run apply them. The
 * written semantics (README "Rules"):
 *
 * - A left value is a packet's field, a work unit's field, an aggregate or an id. Missing (absent,
 *   null) and '' are *empty*; IsEmpty/IsNotEmpty ask only that.
 * - Equals/NotEquals compare as numbers when both sides read as finite numbers, else as text
 *   without regard to case ('ok' equals 'OK'). A missing left equals only ''.
 * - GreaterThan, LessThan and the two ...OrEqual compare numbers; when either side is not a number
 *   but both read as ISO dates they compare instants; otherwise the condition does not hold.
 * - Contains/StartsWith/EndsWith compare text without regard to case; NotContains is the opposite
 *   of Contains, so it holds for a missing left.
 * - Matches/NotMatches run the right operand as a regular expression through RE2 (linear time),
 *   case-sensitive unless the pattern says `(?i)`; a missing left never Matches.
 */
export type Comparator = (left: unknown) => boolean;

/** The text a left value reads as: numbers and booleans as written, objects as JSON, missing as ''. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** A finite number the value reads as, or undefined: numbers, and text that is a number (not '', not ' '). */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
function asInstant(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE.test(value.trim())) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function ordered(right: string, test: (difference: number) => boolean): Comparator {
  const rightNumber = asNumber(right);
  const rightInstant = asInstant(right);
  return (left) => {
    const leftNumber = asNumber(left);
    if (leftNumber !== undefined && rightNumber !== undefined) return test(leftNumber - rightNumber);
    const leftInstant = asInstant(left);
    if (leftInstant !== undefined && rightInstant !== undefined) return test(leftInstant - rightInstant);
    return false;
  };
}

function equals(right: string): Comparator {
  const rightNumber = asNumber(right);
  const rightText = right.toLowerCase();
  return (left) => {
    // The usual case first: the very text (an id, a state); equal as numbers too, when both are.
    if (left === right) return true;
    const leftNumber = asNumber(left);
    if (leftNumber !== undefined && rightNumber !== undefined) return leftNumber === rightNumber;
    return asText(left).toLowerCase() === rightText;
  };
}

/** Texts whose answer a pattern keeps: an entity's fields repeat from packet to packet. */
const PATTERN_ANSWERS_KEPT = 10_000;
/** Patterns kept with their answers across compilations of the rules that hold them. */
const PATTERNS_KEPT = 1_000;
const patterns = new Map<string, { test: ((text: string) => boolean) | undefined; answers: Map<string, boolean> }>();

/**
 * A pattern RE2 cannot run never matches (the rules area refuses to save one). Each answer is
 * kept for the text it was given, since a call into RE2 costs microseconds and the same names and
 * states come back with every packet; the oldest answers are forgotten beyond the limit. A pattern
 * and its answers are kept per instance, not per compiled rule: a tenant's rules are compiled
 * again whenever one of them changes, and its unchanged patterns keep what they learned.
 */
function matches(right: string): Comparator {
  const { test, answers } =
    patterns.get(right) ??
    keepBounded(patterns, right, { test: compilePattern(right), answers: new Map<string, boolean>() }, PATTERNS_KEPT);
  if (!test) return () => false;
  return (left) => {
    if (isEmpty(left)) return false;
    const text = asText(left);
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = keepBounded(answers, text, test(text), PATTERN_ANSWERS_KEPT);
    }
    return answer;
  };
}

/**
 * Builds the test of one operator against its right operand, once per rule (not per packet): a
 * pattern is compiled here, a number read here.
 */
export function compileOperator(operator: OperatorId, rightOperand: string | null): Comparator {
  const right = rightOperand ?? '';
  const lower = right.toLowerCase();
  switch (operator) {
    case OPERATORS.Equals:
      return equals(right);
    case OPERATORS.NotEquals: {
      const test = equals(right);
      return (left) => !test(left);
    }
    case OPERATORS.GreaterThan:
      return ordered(right, (difference) => difference > 0);
    case OPERATORS.LessThan:
      return ordered(right, (difference) => difference < 0);
    case OPERATORS.GreaterThanOrEqual:
      return ordered(right, (difference) => difference >= 0);
    case OPERATORS.LessThanOrEqual:
      return ordered(right, (difference) => difference <= 0);
    case OPERATORS.Contains:
      return (left) => !isEmpty(left) && asText(left).toLowerCase().includes(lower);
    case OPERATORS.NotContains:
      return (left) => !(!isEmpty(left) && asText(left).toLowerCase().includes(lower));
    case OPERATORS.StartsWith:
      return (left) => !isEmpty(left) && asText(left).toLowerCase().startsWith(lower);
    case OPERATORS.EndsWith:
      return (left) => !isEmpty(left) && asText(left).toLowerCase().endsWith(lower);
    case OPERATORS.Matches:
      return matches(right);
    case OPERATORS.NotMatches: {
      const test = matches(right);
      return (left) => !test(left);
    }
    case OPERATORS.IsEmpty:
      return isEmpty;
    case OPERATORS.IsNotEmpty:
      return (left) => !isEmpty(left);
  }
}

export const operatorName = (id: number): string =>
  Object.entries(OPERATORS).find(([, value]) => value === id)?.[0] ?? String(id);
