import { queryOptions } from '@tanstack/react-query';
import type { ListResponse } from '@cfs/contracts/api';
import { apiGetRevalidated, buildUrl, writesSent, type TaggedAnswer } from './api-client';
import {
  skipTokenOf,
  toODataParams,
  type ListParams,
  type ListResource,
  type ListResult,
  type ODataParams,
} from './list-query';
import { BASE_LIST_STATE } from './list-state';

/**
 * Fetching lists through TanStack Query. Every list of a resource is cached under
 * `['list', path, query]`, so one prefix invalidates all its pages, searches and sorts:
 *
 * @example
 *   // features/locations/api.ts
 *   const LOCATIONS_PATH = '/v1/locations';
 *   export function useSaveLocation() {
 *     const queryClient = useQueryClient();
 *     return useMutation({
 *       mutationFn: (location: LocationInput) => apiSend('PUT', LOCATIONS_PATH, location),
 *       onSuccess: () => queryClient.invalidateQueries({ queryKey: listQueryKey(LOCATIONS_PATH) }),
 *     });
 *   }
 */
export function listQueryKey(path: string, query?: ODataParams): readonly unknown[] {
  return query ? ['list', path, query] : ['list', path];
}

/**
 * The last tagged answer per list request, most recently used last (a Map keeps insertion order),
 * with the number of writes this page had sent when it came (writesSent).
 */
const keptAnswers = new Map<string, TaggedAnswer<ListResponse<unknown>> & { writes: number }>();
const KEPT_ANSWERS = 200;

/**
 * One page of a list. The answer is kept with its entity tag, and the next fetch of the same
 * request (a grid's 10 s or 30 s poll) sends the tag: while nothing the list reads has changed,
 * the server answers 304 without running the query and the kept answer is used again. After this
 * page has sent a write, answers kept from before it are fetched again in full: another instance
 * of the server may not have seen the write's change yet, and must not answer 304 to its author.
 */
export async function fetchList<R>(path: string, query: ODataParams, signal?: AbortSignal): Promise<ListResult<R>> {
  const url = buildUrl(path, query);
  const writes = writesSent();
  const found = keptAnswers.get(url) as (TaggedAnswer<ListResponse<R>> & { writes: number }) | undefined;
  const kept = found?.writes === writes ? found : undefined;
  const { tag, body } = await apiGetRevalidated<ListResponse<R>>(path, query, kept, signal ? { signal } : {});
  keptAnswers.delete(url);
  if (tag) {
    keptAnswers.set(url, { tag, body, writes });
    if (keptAnswers.size > KEPT_ANSWERS) keptAnswers.delete(keptAnswers.keys().next().value as string);
  }
  const result: ListResult<R> = { total: body['@odata.count'] ?? body.value.length, rows: body.value };
  if (body['@cfs.countIsLowerBound']) result.totalIsLowerBound = true;
  const nextPageToken = skipTokenOf(body['@odata.nextLink']);
  if (nextPageToken) result.nextPageToken = nextPageToken;
  return result;
}

/**
 * Query options for one page of a list, for screens that list without a grid (tables, pickers):
 * the grid's key and fetch, from the same list contract. Parts of `params` not given are the
 * first page of 10, unsorted, unfiltered.
 *
 * @example
 *   useQuery({ ...listQueryOptions<WorkUnit>('/v1/workunits', { pageSize: 50, sort: [{ field: 'created', direction: 'desc' }] }, { expand: 'tenant' }) })
 */
export function listQueryOptions<R>(path: string, params: Partial<ListParams>, resource: ListResource = {}) {
  const query = toODataParams({ ...BASE_LIST_STATE, ...params }, resource);
  return queryOptions({
    queryKey: listQueryKey(path, query),
    queryFn: ({ signal }) => fetchList<R>(path, query, signal),
  });
}

/**
 * One row of a list, found by a filter, for resources whose API has no single-item call
 * (tokens, categories, work unit types): `null` when no row matches. Cached under the list's
 * key, so a save that invalidates the list refreshes the open item too.
 *
 * @example
 *   useQuery({ ...listItemQueryOptions<TokenGrant>('/v1/tokens', `tokenGrantId eq ${guidLiteral(id)}`), enabled: isGuid(id) })
 */
export function listItemQueryOptions<R>(path: string, filter: string, options: { expand?: string } = {}) {
  const query: ODataParams = { $filter: filter, $top: '1' };
  if (options.expand) query.$expand = options.expand;
  return queryOptions({
    queryKey: listQueryKey(path, query),
    queryFn: async ({ signal }): Promise<R | null> => (await fetchList<R>(path, query, signal)).rows[0] ?? null,
  });
}
