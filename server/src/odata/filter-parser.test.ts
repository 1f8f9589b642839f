import { describe, expect, test } from 'vitest';
import type { FilterNode, Operand } from './filter-parser.js';
import { parseFilter } from './filter-parser.js';
import { ListQueryError } from './list-query-error.js';

/** The tree without positions, as compact text: `(or (eq a 1) (and …))`. */
function show(node: FilterNode): string {
  switch (node.kind) {
    case 'and':
    case 'or':
      return `(${node.kind} ${node.operands.map(show).join(' ')})`;
    case 'not':
      return `(not ${show(node.operand)})`;
    case 'compare':
      return `(${node.op} ${operand(node.left)} ${operand(node.right)})`;
    case 'in':
      return `(in ${operand(node.operand)} ${node.values.map(operand).join(' ')})`;
    case 'operand':
      return operand(node.operand);
  }
}

function operand(value: Operand): string {
  switch (value.kind) {
    case 'path':
      return value.segments.join('/');
    case 'literal':
      return `${value.type}:${value.text}`;
    case 'call':
      return `${value.name}(${value.args.map(operand).join(',')})`;
  }
}

describe('parseFilter', () => {
  test.each([
    ["name eq 'Contoso'", '(eq name string:Contoso)'],
    ["name eq 'it''s'", "(eq name string:it's)"],
    ["name eq ''", '(eq name string:)'],
    ['a eq 1 or b eq 2 and c eq 3', '(or (eq a number:1) (and (eq b number:2) (eq c number:3)))'],
    ['(a eq 1 or b eq 2) and c eq 3', '(and (or (eq a number:1) (eq b number:2)) (eq c number:3))'],
    ['not a eq 1 and b ne 2', '(and (not (eq a number:1)) (ne b number:2))'],
    ['not (a eq 1 and b eq 2)', '(not (and (eq a number:1) (eq b number:2)))'],
    ['a eq 1 and b eq 2 and c eq 3', '(and (eq a number:1) (eq b number:2) (eq c number:3))'],
    ['tenantId eq 3f2504e0-4f89-11d3-9a0c-0305e82c3301', '(eq tenantId guid:3f2504e0-4f89-11d3-9a0c-0305e82c3301)'],
    ['id eq 12345678-ABCD-11d3-9a0c-0305e82c3301', '(eq id guid:12345678-ABCD-11d3-9a0c-0305e82c3301)'],
    ['price ge -1.25 and qty lt 3e2', '(and (ge price number:-1.25) (lt qty number:3e2))'],
    ['created ge 2024-01-01T00:00:00Z', '(ge created datetime:2024-01-01T00:00:00Z)'],
    ['created lt 2024-02-29T23:59:59.123456+05:30', '(lt created datetime:2024-02-29T23:59:59.123456+05:30)'],
    ['created lt 2024-01-01T10:00-08:00', '(lt created datetime:2024-01-01T10:00-08:00)'],
    // An unencoded '+' arrives as a space.
    ['created lt 2024-01-01T10:00:00 02:00', '(lt created datetime:2024-01-01T10:00:00+02:00)'],
    ['due eq 2024-02-29', '(eq due date:2024-02-29)'],
    ['enabled eq true and not deleted', '(and (eq enabled boolean:true) (not deleted))'],
    ['code eq null or code ne null', '(or (eq code null:null) (ne code null:null))'],
    ["tenant/name eq 'Contoso'", '(eq tenant/name string:Contoso)'],
    [
      "contains(tolower(name),'x') and startswith(code, 'A')",
      '(and contains(tolower(name),string:x) startswith(code,string:A))',
    ],
    ["'x' eq tolower(name)", '(eq string:x tolower(name))'],
    ["status in ('New', 'Open')", '(in status string:New string:Open)'],
    ['id in (1,2, 3)', '(in id number:1 number:2 number:3)'],
    ['a eq b', '(eq a b)'],
    ['  (( a eq 1 ))  ', '(eq a number:1)'],
  ])('%s', (text, expected) => {
    expect(show(parseFilter(text))).toBe(expected);
  });

  test.each([
    ['', '$filter is empty'],
    ['(a eq 1', "Expected ')' at position 7 in $filter, found the end"],
    ["(name eq 'x' or name eq 'y'", "Expected ')' at position 27 in $filter, found the end"],
    ['a eq 1)', "Unbalanced ')' at position 6 in $filter, found ')'"],
    ['a eq', 'Expected a field, function or value at position 4 in $filter, found the end'],
    ['a eq 1 and', 'Expected a field, function or value at position 10 in $filter, found the end'],
    ['a eq 1 b eq 2', "Expected 'and', 'or' or the end at position 7 in $filter, found 'b'"],
    ['a eq 1 AND b eq 2', "Expected 'and', 'or' or the end at position 7 in $filter, found 'AND'"],
    ["name eq 'x", 'Unterminated string starting at position 8 in $filter'],
    ['name eq #', "Unexpected character '#' at position 8 in $filter"],
    ['a in 1', "Expected '(' after 'in' at position 5 in $filter, found '1'"],
    ['a in (b)', "Expected a literal value at position 6 in $filter, found 'b'"],
    ['a in (1 2)', "Expected ',' or ')' at position 8 in $filter, found '2'"],
    ['tenant/1 eq 1', "Expected a field name at position 7 in $filter, found '1'"],
    ['contains(name,', 'Expected a field, function or value at position 14 in $filter, found the end'],
    ['created ge 2024-13-01T00:00:00Z', "Invalid date '2024-13-01' at position 11 in $filter"],
    ['created ge 2023-02-29T00:00:00Z', "Invalid date '2023-02-29' at position 11 in $filter"],
    ['created ge 2024-01-01T24:00:00Z', "Invalid date-time '2024-01-01T24:00:00Z' at position 11 in $filter"],
    [
      'created ge 2024-01-01T00:00:00',
      "Date-time '2024-01-01T00:00:00' at position 11 in $filter needs a time zone (Z or ±hh:mm)",
    ],
    ["name eq 'a\u0000b'", 'The string at position 8 in $filter contains the character U+0000'],
    ['not '.repeat(60) + 'a', '$filter is nested too deeply'],
    ['('.repeat(60) + 'a eq 1' + ')'.repeat(60), '$filter is nested too deeply'],
  ])('rejects %j with "%s"', (text, message) => {
    expect(() => parseFilter(text)).toThrow(new ListQueryError(message));
  });

  test('rejects a $filter longer than 10,000 characters', () => {
    expect(() => parseFilter(`name eq '${'x'.repeat(10_000)}'`)).toThrow(
      '$filter is too long (at most 10000 characters)',
    );
  });
});
