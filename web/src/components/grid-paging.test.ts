import { LIST_COUNT_CAP, MAX_SKIP } from '@cfs/contracts/constants';
import { describe, expect, it } from 'vitest';
import { toODataParams } from '../lib/list-query';
import {
  displayedRows,
  gridRowCount,
  NO_PAGE_TOKENS,
  pageRequest,
  rememberNextPage,
  type PageTokens,
} from './grid-paging';

const QUERY = '{"$top":"10","$orderby":"created desc"}';

/** The tokens after the grid was shown pages 0…last of QUERY, each answer linking the next page. */
function shown(last: number, query = QUERY): PageTokens {
  let held = NO_PAGE_TOKENS;
  for (let page = 0; page <= last; page++) held = rememberNextPage(held, query, page, `after-${page}`);
  return held;
}

describe('grid paging', () => {
  it('asks for page 1 by $skip, then each next page by the token of the page before it', () => {
    expect(pageRequest(NO_PAGE_TOKENS, QUERY, 0, 10)).toEqual({ page: 0 });
    const held = shown(2);
    expect(pageRequest(held, QUERY, 1, 10)).toEqual({ page: 1, skipToken: 'after-0' });
    expect(pageRequest(held, QUERY, 3, 10)).toEqual({ page: 3, skipToken: 'after-2' });
    expect(
      toODataParams({ page: 3, pageSize: 10, sort: [], filters: [], search: '', exactMatch: false }, {}, 'after-2'),
    ).toEqual({ $top: '10', $skiptoken: 'after-2', $count: 'true' });
  });

  it('goes back by the tokens it kept, far past the $skip cap, and to the first page without one', () => {
    const deep = MAX_SKIP / 10 + 500;
    const held = shown(deep);
    expect(pageRequest(held, QUERY, deep, 10)).toEqual({ page: deep, skipToken: `after-${deep - 1}` });
    expect(pageRequest(held, QUERY, deep - 1, 10)).toEqual({ page: deep - 1, skipToken: `after-${deep - 2}` });
    expect(pageRequest(held, QUERY, 0, 10)).toEqual({ page: 0 });
  });

  it('asks a page it has no token for by $skip, and starts over where $skip would pass the cap', () => {
    expect(pageRequest(shown(1), QUERY, 7, 10)).toEqual({ page: 7 });
    expect(pageRequest(NO_PAGE_TOKENS, QUERY, MAX_SKIP / 25, 25)).toEqual({ page: MAX_SKIP / 25 });
    expect(pageRequest(NO_PAGE_TOKENS, QUERY, MAX_SKIP / 25 + 1, 25)).toEqual({ page: 0 });
  });

  it('drops the tokens when the query changes: another filter, sort or page size pages by $skip from page 1', () => {
    const held = shown(3);
    const sorted = '{"$top":"10","$orderby":"title asc"}';
    expect(pageRequest(held, sorted, 2, 10)).toEqual({ page: 2 });
    const fresh = rememberNextPage(held, sorted, 0, 'title-0');
    expect(fresh).toEqual({ query: sorted, tokens: { 1: 'title-0' } });
    expect(pageRequest(fresh, QUERY, 2, 10)).toEqual({ page: 2 });
  });

  it('forgets a next page that a refreshed answer no longer links, and keeps the same object when nothing changed', () => {
    const held = shown(2);
    expect(rememberNextPage(held, QUERY, 1, 'after-1')).toBe(held);
    const last = rememberNextPage(held, QUERY, 2, undefined);
    expect(last.tokens).toEqual({ 1: 'after-0', 2: 'after-1' });
    expect(pageRequest(last, QUERY, 3, 10)).toEqual({ page: 3 });
  });

  it('gives the grid the exact count, or unknown past the cap until the last page', () => {
    const rows = Array.from({ length: 10 }, (_, index) => index);
    expect(gridRowCount(undefined, 0, 10)).toBe(-1);
    expect(gridRowCount({ total: 42, rows }, 0, 10)).toBe(42);
    expect(gridRowCount({ total: LIST_COUNT_CAP, rows, totalIsLowerBound: true, nextPageToken: 't' }, 0, 10)).toBe(-1);
    expect(gridRowCount({ total: LIST_COUNT_CAP, rows: rows.slice(0, 4), totalIsLowerBound: true }, 1200, 10)).toBe(
      12_004,
    );
  });

  it('labels a capped count "of more than"', () => {
    expect(displayedRows({ from: 11, to: 20, count: 42 }, undefined)).toBe('11–20 of 42');
    expect(displayedRows({ from: 1, to: 10, count: -1 }, LIST_COUNT_CAP)).toBe('1–10 of more than 10,000');
    expect(displayedRows({ from: 12_001, to: 12_010, count: -1 }, LIST_COUNT_CAP)).toBe(
      '12,001–12,010 of more than 12,010',
    );
    expect(displayedRows({ from: 1, to: 10, count: 12_345 }, undefined)).toBe('1–10 of 12,345');
  });
});
