import { ApiError } from './api-client';

/**
 * Ids of resources: checking the ones read from the address, and writing any id into a request
 * path. An id from the address is the user's (or a link's) text: it is checked against the
 * shape the resource uses before any request, and every id is encoded where it enters a path,
 * so a crafted link cannot steer an authenticated call to another API path (`../`).
 *
 * @example
 *   const workUnitId = positiveIntId(searchParams.get('workUnitId')); // 42, or null for "abc", "0", "../x"
 *   apiGet<Tenant>(`/v1/tenants(${pathId(tenantId)})`);
 */

/** At most 15 digits: always a safe integer. */
const POSITIVE_INT_PATTERN = /^[1-9]\d{0,14}$/;

/** A positive whole number from the address (`?workUnitId=42`, `?page=2`), or null for anything else. */
export function positiveIntId(text: string | null | undefined): number | null {
  return typeof text === 'string' && POSITIVE_INT_PATTERN.test(text) ? Number(text) : null;
}

/**
 * An id as one segment of a request path, encoded. `.` and `..` are refused as well: encoding
 * leaves dots alone, and the browser would resolve such a segment to another path.
 */
export function pathId(id: string | number): string {
  const text = String(id);
  if (text === '' || text === '.' || text === '..') throw notFoundError();
  return encodeURIComponent(text);
}

/**
 * What a fetcher answers for an id that cannot name anything (not a GUID, not a number): the
 * server's 404, without asking it, so the screen shows its "does not exist" text.
 */
export function notFoundError(): ApiError {
  return new ApiError(404, { message: 'Not found.' });
}
