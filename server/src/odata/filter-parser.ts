import { ListQueryError } from './list-query-error.js';

/*
 * Our own recursive-descent parser for the $filter subset the portal speaks, instead of wrapping
 * @odata/parser (which the design names): that parser rejects `in (…)`, reports errors as "Fail at 0"
 * or "Unexpected character at 1" pointing at the wrong place, and returns a deeply nested untyped
 * tree we would have to walk and re-validate anyway. The subset is small (comparisons, and/or/not,
 * `in`, five functions, literals) and owning it gives a typed tree and messages that name the problem.
 *
 * Precedence, loosest first: or, and, not, comparison. `not a eq 1` means `not (a eq 1)`.
 */

export type CompareOp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
const compareOps: readonly CompareOp[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

export type LiteralKind = 'string' | 'number' | 'guid' | 'datetime' | 'date' | 'boolean' | 'null';

export type Operand =
  | { readonly kind: 'path'; readonly segments: readonly string[]; readonly pos: number }
  | { readonly kind: 'literal'; readonly type: LiteralKind; readonly text: string; readonly pos: number }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Operand[]; readonly pos: number };

export type LiteralOperand = Extract<Operand, { kind: 'literal' }>;

export type FilterNode =
  | { readonly kind: 'and' | 'or'; readonly operands: readonly FilterNode[] }
  | { readonly kind: 'not'; readonly operand: FilterNode }
  | {
      readonly kind: 'compare';
      readonly op: CompareOp;
      readonly left: Operand;
      readonly right: Operand;
      readonly pos: number;
    }
  | { readonly kind: 'in'; readonly operand: Operand; readonly values: readonly LiteralOperand[]; readonly pos: number }
  /** An operand standing alone as a condition: a boolean field or contains(…). */
  | { readonly kind: 'operand'; readonly operand: Operand };

interface Token {
  readonly kind: 'ident' | 'literal' | '(' | ')' | ',' | '/' | 'end';
  /** The identifier, or the literal's value (a string unquoted and unescaped). */
  readonly text: string;
  readonly type?: LiteralKind;
  readonly pos: number;
  readonly end: number;
}

const MAX_FILTER_LENGTH = 10_000;
const MAX_DEPTH = 50;

// Tried in this order (literalPatterns): a GUID may start with digits or letters, a date with digits.
const GUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9A-Za-z_])/y;
// A '+' in an offset arrives as a space when the client did not encode it: accept " hh:mm" too.
const DATETIME =
  /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,12})?)?(?:Z|[+-]\d{2}:\d{2}| \d{2}:\d{2})?(?![0-9A-Za-z_])/y;
const DATE = /\d{4}-\d{2}-\d{2}(?![0-9A-Za-z_:])/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![0-9A-Za-z_])/y;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const literalPatterns: readonly (readonly [LiteralKind, RegExp])[] = [
  ['guid', GUID],
  ['datetime', DATETIME],
  ['date', DATE],
  ['number', NUMBER],
];

export function parseFilter(text: string, where = '$filter'): FilterNode {
  if (text.length > MAX_FILTER_LENGTH) {
    throw new ListQueryError(`${where} is too long (at most ${MAX_FILTER_LENGTH} characters)`);
  }
  return new Parser(tokenize(text, where), text, where).parse();
}

function tokenize(text: string, where: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = pos;
    return pattern.exec(text)?.[0];
  };
  while (pos < text.length) {
    const char = text[pos] ?? '';
    if (/\s/.test(char)) {
      pos++;
      continue;
    }
    if (char === '(' || char === ')' || char === ',' || char === '/') {
      tokens.push({ kind: char, text: char, pos, end: pos + 1 });
      pos++;
      continue;
    }
    if (char === "'") {
      let value = '';
      let end = pos + 1;
      for (;;) {
        const quote = text.indexOf("'", end);
        if (quote < 0) throw new ListQueryError(`Unterminated string starting at position ${pos} in ${where}`);
        value += text.slice(end, quote);
        if (text[quote + 1] !== "'") {
          end = quote + 1;
          break;
        }
        value += "'";
        end = quote + 2;
      }
      // PostgreSQL text cannot hold U+0000: refuse it here rather than fail in the database.
      if (value.includes('\u0000'))
        throw new ListQueryError(`The string at position ${pos} in ${where} contains the character U+0000`);
      tokens.push({ kind: 'literal', type: 'string', text: value, pos, end });
      pos = end;
      continue;
    }
    const literal = literalPatterns
      .map(([type, pattern]) => ({ type, raw: match(pattern) }))
      .find(({ raw }) => raw !== undefined);
    if (literal?.raw !== undefined) {
      const { type, raw } = literal;
      const value =
        type === 'datetime' ? checkDateTime(raw, pos, where) : type === 'date' ? checkDate(raw, pos, where) : raw;
      tokens.push({ kind: 'literal', type, text: value, pos, end: pos + raw.length });
      pos += raw.length;
      continue;
    }
    const ident = match(IDENT);
    if (ident !== undefined) {
      const type = ident === 'true' || ident === 'false' ? 'boolean' : ident === 'null' ? 'null' : undefined;
      tokens.push({
        kind: type ? 'literal' : 'ident',
        text: ident,
        pos,
        end: pos + ident.length,
        ...(type && { type }),
      });
      pos += ident.length;
      continue;
    }
    throw new ListQueryError(`Unexpected character '${char}' at position ${pos} in ${where}`);
  }
  tokens.push({ kind: 'end', text: '', pos: text.length, end: text.length });
  return tokens;
}

function checkDate(raw: string, pos: number, where: string): string {
  const [year = 0, month = 0, day = 0] = raw.slice(0, 10).split('-').map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth) {
    throw new ListQueryError(`Invalid date '${raw.slice(0, 10)}' at position ${pos} in ${where}`);
  }
  return raw;
}

/** Rejects what PostgreSQL would (month 13, 25:00…) and restores a '+' that URL decoding turned into a space. */
function checkDateTime(raw: string, pos: number, where: string): string {
  checkDate(raw, pos, where);
  const fixed = raw.replace(/ (\d{2}:\d{2})$/, '+$1');
  const time = /T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))?$/.exec(fixed);
  if (!/(Z|[+-]\d{2}:\d{2})$/.test(fixed)) {
    throw new ListQueryError(`Date-time '${raw}' at position ${pos} in ${where} needs a time zone (Z or ±hh:mm)`);
  }
  const [hour = 0, minute = 0, second = 0, offsetHour = 0, offsetMinute = 0] = (time ?? [])
    .slice(1)
    .map((part) => Number(part ?? 0));
  if (hour > 23 || minute > 59 || second > 59 || offsetHour > 14 || offsetMinute > 59) {
    throw new ListQueryError(`Invalid date-time '${raw}' at position ${pos} in ${where}`);
  }
  return fixed;
}

const isCompareOp = (word: string): word is CompareOp => (compareOps as readonly string[]).includes(word);

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly text: string,
    private readonly where: string,
  ) {}

  parse(): FilterNode {
    if (this.peek().kind === 'end') throw new ListQueryError(`${this.where} is empty`);
    const node = this.parseOr();
    const next = this.peek();
    if (next.kind !== 'end')
      throw this.error(next.kind === ')' ? `Unbalanced ')'` : `Expected 'and', 'or' or the end`, next);
    return node;
  }

  private peek(): Token {
    // The list always ends with an 'end' token and the parser never moves past it.
    return this.tokens[Math.min(this.index, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private accept(kind: Token['kind'], word?: string): boolean {
    const token = this.peek();
    if (token.kind !== kind || (word !== undefined && token.text !== word)) return false;
    this.next();
    return true;
  }

  private expect(kind: Token['kind'], what = `'${kind}'`): Token {
    const token = this.peek();
    if (token.kind !== kind) throw this.error(`Expected ${what}`, token);
    return this.next();
  }

  private error(message: string, token: { readonly pos: number; readonly end: number }): ListQueryError {
    const found =
      token.pos >= this.text.length
        ? 'the end'
        : `'${this.text.slice(token.pos, Math.min(token.end, token.pos + 40))}'`;
    return new ListQueryError(`${message} at position ${token.pos} in ${this.where}, found ${found}`);
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new ListQueryError(`${this.where} is nested too deeply`);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private parseOr(): FilterNode {
    const operands = [this.parseAnd()];
    while (this.accept('ident', 'or')) operands.push(this.parseAnd());
    return operands.length === 1 ? operands[0]! : { kind: 'or', operands };
  }

  private parseAnd(): FilterNode {
    const operands = [this.parseNot()];
    while (this.accept('ident', 'and')) operands.push(this.parseNot());
    return operands.length === 1 ? operands[0]! : { kind: 'and', operands };
  }

  private parseNot(): FilterNode {
    return this.nested(() =>
      this.accept('ident', 'not') ? { kind: 'not', operand: this.parseNot() } : this.parseCondition(),
    );
  }

  private parseCondition(): FilterNode {
    if (this.accept('(')) {
      const inner = this.parseOr();
      this.expect(')', `')'`);
      return inner;
    }
    const left = this.parseOperand();
    const token = this.peek();
    if (token.kind === 'ident' && isCompareOp(token.text)) {
      this.next();
      return { kind: 'compare', op: token.text, left, right: this.parseOperand(), pos: token.pos };
    }
    if (this.accept('ident', 'in')) {
      this.expect('(', `'(' after 'in'`);
      const values: LiteralOperand[] = [];
      do {
        const start = this.peek();
        const value = this.parseOperand();
        if (value.kind !== 'literal') throw this.error('Expected a literal value', start);
        values.push(value);
      } while (this.accept(','));
      this.expect(')', `',' or ')'`);
      return { kind: 'in', operand: left, values, pos: token.pos };
    }
    return { kind: 'operand', operand: left };
  }

  private parseOperand(): Operand {
    const token = this.next();
    if (token.kind === 'literal')
      return { kind: 'literal', type: token.type ?? 'string', text: token.text, pos: token.pos };
    if (token.kind !== 'ident') throw this.error('Expected a field, function or value', token);
    if (this.accept('(')) {
      return this.nested(() => {
        const args: Operand[] = [];
        if (!this.accept(')')) {
          do args.push(this.parseOperand());
          while (this.accept(','));
          this.expect(')', `',' or ')'`);
        }
        return { kind: 'call', name: token.text, args, pos: token.pos };
      });
    }
    const segments = [token.text];
    while (this.accept('/')) segments.push(this.expect('ident', 'a field name').text);
    return { kind: 'path', segments, pos: token.pos };
  }
}
