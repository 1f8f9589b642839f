import { MAX_SKIP } from '@cfs/contracts/constants';
import type { ListResult } from '../lib/list-query';

/**
 * How a server grid asks for its pages. Each full page's answer carries the `$skiptoken` of the
 * page after it (`@odata.nextLink`); the grid keeps the tokens of the pages it has been shown,
 * so Next asks for the page after the last row seen and Previous for a page whose token it
 * already holds — a deep page costs the server what page 1 costs, and no backward cursor is needed.
 * A page without a known token (a link, the first and last page buttons, a reload) is asked for
 * by `$skip`; a new filter, sort or page size is another query, whose tokens start over.
 *
 * @example
 *   const request = pageRequest(held, queryWithoutPage, state.page, state.pageSize);
 *   const query = toODataParams({ ...params, page: request.page }, resource, request.skipToken);
 *   // once the page's answer is in:
 *   held = rememberNextPage(held, queryWithoutPage, request.page, answer.nextPageToken);
 */
export interface PageTokens {
  /** The query the tokens were made for, without its page. */
  readonly query: string;
  /** Page number → the `$skiptoken` that starts it. */
  readonly tokens: Readonly<Record<number, string>>;
}

export const NO_PAGE_TOKENS: PageTokens = { query: '', tokens: {} };

export interface PageRequest {
  /** The page asked for: the one shown, or 0 when that one cannot be asked for (see below). */
  page: number;
  /** Present when the page is asked for by its token instead of `$skip`. */
  skipToken?: string;
}

/**
 * The request of `page`: by its token when one is known, else by `$skip`. A page past the
 * server's `$skip` cap with no token (a reload deep in a long list) starts the list over.
 */
export function pageRequest(held: PageTokens, query: string, page: number, pageSize: number): PageRequest {
  const token = held.query === query ? held.tokens[page] : undefined;
  if (page > 0 && token !== undefined) return { page, skipToken: token };
  if (page * pageSize <= MAX_SKIP) return { page };
  return { page: 0 };
}

/** The tokens once `page`'s answer is in: its `nextPageToken` starts the page after it. Unchanged, the same object. */
export function rememberNextPage(
  held: PageTokens,
  query: string,
  page: number,
  nextPageToken: string | undefined,
): PageTokens {
  const same = held.query === query;
  if (same && held.tokens[page + 1] === nextPageToken) return held;
  const tokens = same ? { ...held.tokens } : {};
  if (nextPageToken === undefined) delete tokens[page + 1];
  else tokens[page + 1] = nextPageToken;
  return { query, tokens };
}

/**
 * The Data Grid's `rowCount`: the count when it is exact; past the server's count cap unknown
 * (-1, so Next stays enabled) while there is a next page, and exact again on the last page.
 */
export function gridRowCount(
  result: Pick<ListResult<unknown>, 'total' | 'rows' | 'totalIsLowerBound' | 'nextPageToken'> | undefined,
  page: number,
  pageSize: number,
): number {
  if (!result) return -1;
  if (!result.totalIsLowerBound) return result.total;
  return result.nextPageToken ? -1 : page * pageSize + result.rows.length;
}

/**
 * The pager's text: "11–20 of 42", and while the count is unknown "1–10 of more than 10,000"
 * (`atLeast`, the capped count; past it the last row shown).
 */
export function displayedRows(
  { from, to, count }: { from: number; to: number; count: number },
  atLeast: number | undefined,
): string {
  const format = (value: number) => value.toLocaleString('en-US');
  if (count !== -1) return `${format(from)}–${format(to)} of ${format(count)}`;
  return `${format(from)}–${format(to)} of more than ${format(Math.max(atLeast ?? 0, to))}`;
}
