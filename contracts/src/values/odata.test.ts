import { describe, expect, it } from 'vitest';
import { dateTimeLiteral, guidLiteral, isGuid, literal, quote, searchClause } from './odata.js';

/** The OData literals and the search box's clause, as the grids send them (spec 002 §5). */
const GUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const GUID_UPPER = '3F2504E0-4F89-41D3-9A0C-0305E82C3301';

describe('literals', () => {
  it('single-quotes a text and doubles a quote inside it', () => {
    expect(quote('abc')).toBe("'abc'");
    expect(quote("O'Neil")).toBe("'O''Neil'");
    expect(quote("''")).toBe("''''''");
  });

  it('writes numbers and booleans bare, null as null, dates in UTC with a Z suffix', () => {
    expect(literal(42)).toBe('42');
    expect(literal(-1.5)).toBe('-1.5');
    expect(literal(true)).toBe('true');
    expect(literal(null)).toBe('null');
    expect(literal(new Date(Date.UTC(2024, 0, 1, 10, 0, 0)))).toBe('2024-01-01T10:00:00.000Z');
    expect(literal("it's")).toBe("'it''s'");
  });

  it('refuses a number that is not finite', () => {
    expect(() => literal(Number.NaN)).toThrow();
  });

  it('recognises GUIDs in any case and writes them bare in lower case', () => {
    expect(isGuid(GUID)).toBe(true);
    expect(isGuid(GUID_UPPER)).toBe(true);
    expect(guidLiteral(` ${GUID} `)).toBe(GUID);
    expect(isGuid('3f2504e0-4f89-41d3-9a0c-0305e82c330')).toBe(false);
    expect(isGuid("3f2504e0-4f89-41d3-9a0c-0305e82c3301' or 1 eq 1")).toBe(false);
    expect(guidLiteral(GUID_UPPER)).toBe(GUID);
    expect(() => guidLiteral('nope')).toThrow();
  });

  it('formats a date-time literal as ISO text ending in Z', () => {
    expect(dateTimeLiteral(new Date('2024-03-05T06:07:08.009Z'))).toBe('2024-03-05T06:07:08.009Z');
  });
});

describe('search', () => {
  const fields = [
    'title',
    'tenant/name',
    { path: 'workUnitId', kind: 'number' },
    { path: 'deviceId', kind: 'guid' },
  ] as const;

  it('searches text fields with case-insensitive contains, OR-ed', () => {
    expect(searchClause('Disk Full', false, ['title', 'tenant/name'])).toBe(
      "(contains(tolower(title),'disk full') or contains(tolower(tenant/name),'disk full'))",
    );
  });

  it('compares numeric fields only when the text is a number', () => {
    expect(searchClause('abc', false, fields)).toBe(
      "(contains(tolower(title),'abc') or contains(tolower(tenant/name),'abc'))",
    );
    expect(searchClause('42', false, fields)).toBe(
      "(contains(tolower(title),'42') or contains(tolower(tenant/name),'42') or workUnitId eq 42)",
    );
  });

  it('compares GUID fields only when the text is a GUID', () => {
    expect(searchClause(GUID_UPPER, false, fields)).toBe(
      `(contains(tolower(title),'${GUID}') or contains(tolower(tenant/name),'${GUID}') or deviceId eq ${GUID})`,
    );
  });

  it('uses equality with Exact Match, keeping the case', () => {
    expect(searchClause('Disk Full', true, ['title', { path: 'workUnitId', kind: 'number' }])).toBe(
      "title eq 'Disk Full'",
    );
    expect(searchClause('7', true, ['title', { path: 'workUnitId', kind: 'number' }])).toBe(
      "(title eq '7' or workUnitId eq 7)",
    );
  });

  it("escapes a quote in the search text (O'Neil)", () => {
    expect(searchClause("O'Neil", false, ['name'])).toBe("contains(tolower(name),'o''neil')");
    expect(searchClause("O'Neil", true, ['name'])).toBe("name eq 'O''Neil'");
  });

  it('trims the text and ignores an empty search', () => {
    expect(searchClause('  abc  ', false, ['name'])).toBe("contains(tolower(name),'abc')");
    expect(searchClause('   ', false, ['name'])).toBeUndefined();
    expect(searchClause('abc', false, [])).toBeUndefined();
  });

  it('matches nothing when no search field can hold the text', () => {
    expect(searchClause('abc', false, [{ path: 'workUnitId', kind: 'number' }])).toBe('false');
  });
});
