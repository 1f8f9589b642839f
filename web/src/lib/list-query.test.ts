import { describe, expect, it } from 'vitest';
import {
  andFilters,
  buildFilter,
  buildOrderBy,
  tenantScopeFilter,
  skipTokenOf,
  toExportParams,
  toODataParams,
  type ListParams,
  type ListResource,
} from './list-query';
import { filterClause } from './grid-filter';

const GUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const GUID_UPPER = '3F2504E0-4F89-41D3-9A0C-0305E82C3301';

function params(overrides: Partial<ListParams> = {}): ListParams {
  return { page: 0, pageSize: 10, sort: [], filters: [], search: '', exactMatch: false, ...overrides };
}

describe('string filters', () => {
  it('filters "contains" case-insensitively (the standard filter)', () => {
    expect(filterClause({ field: 'name', operator: 'contains', value: 'Main St' })).toBe(
      "contains(tolower(name),'main st')",
    );
  });

  it("escapes a quote in a filter value (O'Neil)", () => {
    expect(filterClause({ field: 'name', operator: 'contains', value: "O'Neil" })).toBe(
      "contains(tolower(name),'o''neil')",
    );
    expect(filterClause({ field: 'name', operator: 'equals', value: "'; drop" })).toBe("tolower(name) eq '''; drop'");
  });

  it('maps equals, doesNotEqual, startsWith, endsWith and doesNotContain', () => {
    expect(filterClause({ field: 'city', operator: 'equals', value: 'Austin' })).toBe("tolower(city) eq 'austin'");
    expect(filterClause({ field: 'city', operator: 'doesNotEqual', value: 'Austin' })).toBe(
      "tolower(city) ne 'austin'",
    );
    expect(filterClause({ field: 'city', operator: 'startsWith', value: 'Au' })).toBe("startswith(tolower(city),'au')");
    expect(filterClause({ field: 'city', operator: 'endsWith', value: 'IN' })).toBe("endswith(tolower(city),'in')");
    expect(filterClause({ field: 'city', operator: 'doesNotContain', value: 'x' })).toBe(
      "not contains(tolower(city),'x')",
    );
  });

  it('maps isEmpty and isNotEmpty to null or empty text', () => {
    expect(filterClause({ field: 'city', operator: 'isEmpty' })).toBe("(city eq null or city eq '')");
    expect(filterClause({ field: 'city', operator: 'isNotEmpty' })).toBe("(city ne null and city ne '')");
  });

  it('maps isAnyOf to an in-list of quoted, lower-cased texts', () => {
    expect(filterClause({ field: 'state', operator: 'isAnyOf', value: ['TX', "Hawai'i"] })).toBe(
      "tolower(state) in ('tx','hawai''i')",
    );
  });

  it('leaves out an item without a value or with an empty list', () => {
    expect(filterClause({ field: 'city', operator: 'contains' })).toBeUndefined();
    expect(filterClause({ field: 'city', operator: 'contains', value: '' })).toBeUndefined();
    expect(filterClause({ field: 'city', operator: 'isAnyOf', value: [] })).toBeUndefined();
  });

  it('uses the declared server path for a navigation field', () => {
    expect(filterClause({ field: 'tenant', operator: 'contains', value: 'Acme' }, { path: 'tenant/name' })).toBe(
      "contains(tolower(tenant/name),'acme')",
    );
  });

  it('never writes a field that is not a property path into the query', () => {
    expect(filterClause({ field: 'name) or (1 eq 1', operator: 'contains', value: 'a' })).toBeUndefined();
  });

  it('leaves out an operator the kind does not have', () => {
    expect(filterClause({ field: 'name', operator: 'after', value: 'a' })).toBeUndefined();
  });
});

describe('version filters', () => {
  it('compares a version as written with the six comparison operators, and matches its text otherwise', () => {
    const clause = (operator: string, value: unknown) =>
      filterClause({ field: 'version', operator, value }, { kind: 'version' });
    expect(clause('<', '3.0.13')).toBe("version lt '3.0.13'");
    expect(clause('<=', ' 3.0.13 ')).toBe("version le '3.0.13'");
    expect(clause('=', '1:2.39-1')).toBe("version eq '1:2.39-1'");
    expect(clause('!=', '2')).toBe("version ne '2'");
    expect(clause('>', "1.0'rc")).toBe("version gt '1.0''rc'");
    expect(clause('>=', 3)).toBe("version ge '3'");
    expect(clause('<', '  ')).toBeUndefined();
    expect(clause('contains', 'deb12')).toBe("contains(tolower(version),'deb12')");
  });
});

describe('number filters', () => {
  it('compares numbers exactly and with the six comparison operators', () => {
    const clause = (operator: string, value: unknown) =>
      filterClause({ field: 'effort', operator, value }, { kind: 'number' });
    expect(clause('=', 5)).toBe('effort eq 5');
    expect(clause('!=', 5)).toBe('effort ne 5');
    expect(clause('>', 5)).toBe('effort gt 5');
    expect(clause('>=', '5')).toBe('effort ge 5');
    expect(clause('<', 2.5)).toBe('effort lt 2.5');
    expect(clause('<=', -3)).toBe('effort le -3');
  });

  it('leaves out a value that is not a number', () => {
    expect(filterClause({ field: 'effort', operator: '=', value: 'abc' }, { kind: 'number' })).toBeUndefined();
    expect(filterClause({ field: 'effort', operator: '=', value: Number.NaN }, { kind: 'number' })).toBeUndefined();
    expect(filterClause({ field: 'effort', operator: '=', value: '' }, { kind: 'number' })).toBeUndefined();
  });

  it('maps isAnyOf, isEmpty and isNotEmpty', () => {
    expect(filterClause({ field: 'effort', operator: 'isAnyOf', value: [1, '2', 3] }, { kind: 'number' })).toBe(
      'effort in (1,2,3)',
    );
    expect(filterClause({ field: 'effort', operator: 'isEmpty' }, { kind: 'number' })).toBe('effort eq null');
    expect(filterClause({ field: 'effort', operator: 'isNotEmpty' }, { kind: 'number' })).toBe('effort ne null');
  });
});

describe('GUID filters', () => {
  it('sends a valid GUID bare', () => {
    expect(filterClause({ field: 'tenantId', operator: 'equals', value: GUID_UPPER }, { kind: 'guid' })).toBe(
      `tenantId eq ${GUID}`,
    );
    expect(filterClause({ field: 'tenantId', operator: 'is', value: GUID }, { kind: 'guid' })).toBe(
      `tenantId eq ${GUID}`,
    );
    expect(filterClause({ field: 'tenantId', operator: 'not', value: GUID }, { kind: 'guid' })).toBe(
      `tenantId ne ${GUID}`,
    );
  });

  it('does not send an invalid GUID', () => {
    expect(
      filterClause({ field: 'tenantId', operator: 'equals', value: '3f2504e0' }, { kind: 'guid' }),
    ).toBeUndefined();
    expect(
      filterClause({ field: 'tenantId', operator: 'equals', value: "x' or 'a' eq 'a" }, { kind: 'guid' }),
    ).toBeUndefined();
  });

  it('does not send an isAnyOf list holding an invalid GUID', () => {
    expect(
      filterClause({ field: 'tenantId', operator: 'isAnyOf', value: [GUID, 'bad'] }, { kind: 'guid' }),
    ).toBeUndefined();
    expect(filterClause({ field: 'tenantId', operator: 'isAnyOf', value: [GUID] }, { kind: 'guid' })).toBe(
      `tenantId in (${GUID})`,
    );
  });

  it('does not offer text operators on a GUID', () => {
    expect(filterClause({ field: 'tenantId', operator: 'contains', value: GUID }, { kind: 'guid' })).toBeUndefined();
  });
});

describe('single-select, boolean filters', () => {
  it('sends a numeric option bare and a text option quoted', () => {
    expect(filterClause({ field: 'stateId', operator: 'is', value: 1 }, { kind: 'enum' })).toBe('stateId eq 1');
    expect(filterClause({ field: 'status', operator: 'is', value: "Won't" }, { kind: 'enum' })).toBe(
      "status eq 'Won''t'",
    );
    expect(filterClause({ field: 'stateId', operator: 'not', value: 4 }, { kind: 'enum' })).toBe('stateId ne 4');
    expect(filterClause({ field: 'stateId', operator: 'isAnyOf', value: [4, 5, 6] }, { kind: 'enum' })).toBe(
      'stateId in (4,5,6)',
    );
  });

  it('leaves out a single-select without a choice', () => {
    expect(filterClause({ field: 'stateId', operator: 'is', value: '' }, { kind: 'enum' })).toBeUndefined();
    expect(filterClause({ field: 'stateId', operator: 'is' }, { kind: 'enum' })).toBeUndefined();
  });

  it('reads the grid\'s "true"/"false" texts and booleans; "any" is left out', () => {
    expect(filterClause({ field: 'isEnabled', operator: 'is', value: 'true' }, { kind: 'boolean' })).toBe(
      'isEnabled eq true',
    );
    expect(filterClause({ field: 'isEnabled', operator: 'is', value: false }, { kind: 'boolean' })).toBe(
      'isEnabled eq false',
    );
    expect(filterClause({ field: 'isEnabled', operator: 'is', value: '' }, { kind: 'boolean' })).toBeUndefined();
  });
});

describe('date-time filters (minute precision)', () => {
  const picked = '2024-01-01T10:00:00.000Z';
  const clause = (operator: string, value: unknown = picked) =>
    filterClause({ field: 'created', operator, value }, { kind: 'dateTime' });

  it("'after' adds 59.999 seconds to the picked minute", () => {
    expect(clause('after')).toBe('created gt 2024-01-01T10:00:59.999Z');
  });

  it("'onOrBefore' ends at the picked minute plus 59.999 seconds; 'before' and 'onOrAfter' at its start", () => {
    expect(clause('onOrBefore')).toBe('created le 2024-01-01T10:00:59.999Z');
    expect(clause('before')).toBe('created lt 2024-01-01T10:00:00.000Z');
    expect(clause('onOrAfter')).toBe('created ge 2024-01-01T10:00:00.000Z');
  });

  it("'is' covers the whole minute and 'not' everything outside it", () => {
    expect(clause('is')).toBe('(created ge 2024-01-01T10:00:00.000Z and created le 2024-01-01T10:00:59.999Z)');
    expect(clause('not')).toBe('(created lt 2024-01-01T10:00:00.000Z or created gt 2024-01-01T10:00:59.999Z)');
  });

  it('accepts a Date object and drops its seconds', () => {
    expect(clause('onOrAfter', new Date('2024-01-01T10:00:42.123Z'))).toBe('created ge 2024-01-01T10:00:00.000Z');
  });

  it('formats with a Z suffix whatever offset the value was written with', () => {
    expect(clause('onOrAfter', '2024-01-01T12:00:00+02:00')).toBe('created ge 2024-01-01T10:00:00.000Z');
  });

  it('leaves out a value that is no date, and maps emptiness to null', () => {
    expect(clause('after', 'not a date')).toBeUndefined();
    expect(clause('after', '')).toBeUndefined();
    expect(clause('isEmpty', undefined)).toBe('created eq null');
    expect(clause('isNotEmpty', undefined)).toBe('created ne null');
  });
});

describe('date filters (day precision, in local time)', () => {
  const dayStart = new Date(2024, 1, 29).toISOString();
  const dayEnd = new Date(new Date(2024, 2, 1).getTime() - 1).toISOString();
  const clause = (operator: string, value: unknown = '2024-02-29T00:00:00.000Z') =>
    filterClause({ field: 'expiresOn', operator, value }, { kind: 'date' });

  it("'is' covers the picked day from its first to its last millisecond", () => {
    expect(clause('is')).toBe(`(expiresOn ge ${dayStart} and expiresOn le ${dayEnd})`);
  });

  it("'after' starts after the day's last millisecond, 'before' before its first", () => {
    expect(clause('after')).toBe(`expiresOn gt ${dayEnd}`);
    expect(clause('before')).toBe(`expiresOn lt ${dayStart}`);
    expect(clause('onOrAfter')).toBe(`expiresOn ge ${dayStart}`);
    expect(clause('onOrBefore')).toBe(`expiresOn le ${dayEnd}`);
  });

  it('reads the day the grid input picked from a Date (UTC midnight) and from plain YYYY-MM-DD', () => {
    expect(clause('onOrAfter', new Date('2024-02-29'))).toBe(`expiresOn ge ${dayStart}`);
    expect(clause('onOrAfter', '2024-02-29')).toBe(`expiresOn ge ${dayStart}`);
  });

  it('sends date literals with a Z suffix', () => {
    expect(clause('onOrAfter')).toMatch(/ge \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('the whole query', () => {
  const resource: ListResource = {
    searchFields: ['name', 'city', 'state'],
    fields: { tenant: { path: 'tenant/name' }, tenantId: { kind: 'guid' } },
    fixedFilter: 'isEnabled eq true or isDefault eq true',
    expand: 'tenant',
  };

  it('pages with $top and $skip and always asks for the count', () => {
    expect(toODataParams(params({ page: 2, pageSize: 25 }), {})).toEqual({ $top: '25', $skip: '50', $count: 'true' });
  });

  it('asks for a page by its $skiptoken in place of $skip; Export Page keeps the token, Export All starts from the first row', () => {
    expect(toODataParams(params({ page: 2000, pageSize: 25 }), {}, 'tok')).toEqual({
      $top: '25',
      $skiptoken: 'tok',
      $count: 'true',
    });
    expect(toExportParams(params({ page: 2000 }), {}, 'page', undefined, 'tok')).toEqual({
      $top: '10',
      $skiptoken: 'tok',
    });
    expect(toExportParams(params({ page: 2000 }), {}, 'all', undefined, 'tok')).toEqual({ $top: '1000' });
  });

  it("reads the $skiptoken of a list answer's @odata.nextLink", () => {
    expect(skipTokenOf('/v1/workunits?$top=10&$orderby=created+desc&$skiptoken=eyJvIjoi_-x')).toBe('eyJvIjoi_-x');
    expect(skipTokenOf('https://portal.example/v1/tenants?%24skiptoken=abc')).toBe('abc');
    expect(skipTokenOf(undefined)).toBeUndefined();
    expect(skipTokenOf('/v1/tenants?$top=10')).toBeUndefined();
  });

  it('sorts by the server path, several fields in order', () => {
    expect(
      buildOrderBy(
        [
          { field: 'tenant', direction: 'asc' },
          { field: 'created', direction: 'desc' },
        ],
        resource,
      ),
    ).toBe('tenant/name asc, created desc');
    expect(buildOrderBy([], resource)).toBeUndefined();
    expect(buildOrderBy([{ field: 'a desc, b', direction: 'asc' }], resource)).toBeUndefined();
  });

  it('ANDs the fixed filter, the filters and the search, parenthesising any OR', () => {
    const query = toODataParams(
      params({
        sort: [{ field: 'tenant', direction: 'desc' }],
        filters: [
          { field: 'tenantId', operator: 'equals', value: GUID },
          { field: 'city', operator: 'contains', value: 'Aus' },
          { field: 'state', operator: 'contains', value: '' },
        ],
        search: "O'Neil",
      }),
      resource,
    );
    expect(query).toEqual({
      $filter:
        `(isEnabled eq true or isDefault eq true) and tenantId eq ${GUID} and contains(tolower(city),'aus')` +
        " and (contains(tolower(name),'o''neil') or contains(tolower(city),'o''neil') or contains(tolower(state),'o''neil'))",
      $orderby: 'tenant/name desc',
      $top: '10',
      $skip: '0',
      $count: 'true',
      $expand: 'tenant',
    });
  });

  it('does not parenthesise a single part, nor one that already is one term', () => {
    expect(buildFilter(params(), { fixedFilter: 'a eq 1 or b eq 2' })).toBe('a eq 1 or b eq 2');
    expect(buildFilter(params({ search: 'x' }), { fixedFilter: '(a eq 1 or b eq 2)', searchFields: ['n'] })).toBe(
      "(a eq 1 or b eq 2) and contains(tolower(n),'x')",
    );
    expect(buildFilter(params({ search: 'x' }), { fixedFilter: "name eq 'a or b'", searchFields: ['n'] })).toBe(
      "name eq 'a or b' and contains(tolower(n),'x')",
    );
    expect(buildFilter(params({ search: 'x' }), { fixedFilter: '(a eq 1) or (b eq 2)', searchFields: ['n'] })).toBe(
      "((a eq 1) or (b eq 2)) and contains(tolower(n),'x')",
    );
  });

  it('sends no $filter when nothing filters', () => {
    expect(toODataParams(params({ filters: [{ field: 'city', operator: 'contains' }] }), {}).$filter).toBeUndefined();
  });

  it('exports the page with the same filter and order and no count', () => {
    const list = params({ page: 3, pageSize: 50, search: 'x', sort: [{ field: 'name', direction: 'asc' }] });
    expect(toExportParams(list, { searchFields: ['name'] }, 'page')).toEqual({
      $filter: "contains(tolower(name),'x')",
      $orderby: 'name asc',
      $top: '50',
      $skip: '150',
    });
  });

  it('exports all as the first 1000 rows, or without $top when asked', () => {
    const list = params({ page: 3, pageSize: 50, search: 'x' });
    expect(toExportParams(list, { searchFields: ['name'] }, 'all')).toEqual({
      $filter: "contains(tolower(name),'x')",
      $top: '1000',
    });
    expect(toExportParams(list, { searchFields: ['name'] }, 'all', null)).toEqual({
      $filter: "contains(tolower(name),'x')",
    });
  });
});

describe('tenant scope', () => {
  const contoso = '6F1A2C3E-8B4D-4E5F-9A6B-7C8D9E0F1A2B';

  it('lists the tenant in the path, every tenant the caller has once "All tenants" is chosen, and nothing without a tenant', () => {
    expect(tenantScopeFilter(contoso, false)).toBe('tenantId eq 6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b');
    expect(tenantScopeFilter(contoso, true)).toBeUndefined();
    expect(tenantScopeFilter('', false)).toBe('false');
    expect(tenantScopeFilter('tenants', false)).toBe('false');
  });

  it('AND-s clauses, parenthesising those with an and/or of their own', () => {
    expect(andFilters(undefined, '  ')).toBeUndefined();
    expect(andFilters('tenantId eq 1', undefined)).toBe('tenantId eq 1');
    expect(andFilters('tenantId eq 1', 'not (stateId in (6,7,8)) and protocolId eq 5')).toBe(
      'tenantId eq 1 and (not (stateId in (6,7,8)) and protocolId eq 5)',
    );
  });
});
