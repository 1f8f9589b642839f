import type { ErrorResponse } from '@cfs/contracts/api';

/**
 * The one way the web talks to the server. Every call carries the signed-in user's bearer
 * token; a 401 sends the browser to the login page with `requestUrl`, a 403 raises the
 * 8-second toast (spec 000 §8) unless the caller handles it (`allowForbidden`).
 *
 * @example
 *   const tenants = await apiGet<ListResponse<Tenant>>('/v1/tenants', { $top: '10', $count: 'true' });
 *   await apiSend('POST', `/v1/tenants/${pathId(id)}`, tenant); // every id in a path through `pathId` (lib/ids.ts)
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorResponse | undefined,
  ) {
    super(body?.message ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
}

/**
 * Whether the client has already answered this failure for the user: 401 (sent to the login
 * page) and 403 (the access toast). A mutation's own failure toast skips these.
 *
 * @example
 *   onError: (error) => { if (!isReportedByClient(error)) toast.error(MESSAGES.saveFailed); }
 */
export function isReportedByClient(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  /** Do not toast on 403: the caller shows its own screen (the start-up permission call). */
  allowForbidden?: boolean;
  signal?: AbortSignal;
}

export interface ApiHooks {
  accessToken: () => string | undefined;
  onUnauthorized: () => void;
  onForbidden: () => void;
}

let hooks: ApiHooks = {
  accessToken: () => undefined,
  onUnauthorized: () => undefined,
  onForbidden: () => undefined,
};

/** Wired once by the auth provider. */
export function configureApiClient(next: ApiHooks): void {
  hooks = next;
}

export function buildUrl(path: string, params?: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

async function request(
  method: string,
  url: string,
  body: unknown,
  options: RequestOptions,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
  const token = hooks.accessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  // A form with a file goes as multipart: the browser writes its Content-Type with the boundary.
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = isForm ? body : JSON.stringify(body);
  if (options.signal) init.signal = options.signal;
  const response = await fetch(url, init);
  if (response.ok || (response.status === 304 && headers['If-None-Match'])) return response;
  const errorBody = await readErrorBody(response);
  if (response.status === 401) hooks.onUnauthorized();
  if (response.status === 403 && !options.allowForbidden) hooks.onForbidden();
  throw new ApiError(response.status, errorBody);
}

async function readErrorBody(response: Response): Promise<ErrorResponse | undefined> {
  try {
    const parsed: unknown = await response.json();
    if (parsed && typeof parsed === 'object' && 'message' in parsed) return parsed as ErrorResponse;
  } catch {
    // A non-JSON error body carries nothing the screens can show.
  }
  return undefined;
}

async function readJson<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function apiGet<T>(path: string, params?: QueryParams, options: RequestOptions = {}): Promise<T> {
  return readJson<T>(await request('GET', buildUrl(path, params), undefined, options));
}

/** An answer kept with its entity tag, to be revalidated rather than fetched again. */
export interface TaggedAnswer<T> {
  tag: string;
  body: T;
}

/**
 * A GET that revalidates a kept answer: sends its tag as `If-None-Match` and, when the server
 * answers 304 Not Modified, hands the kept answer back. Signed-in answers are `no-store`, so the
 * browser's own cache never does this for us. `tag` is undefined when the server sent none.
 *
 * @example
 *   const fresh = await apiGetRevalidated<ListResponse<Tenant>>('/v1/tenants', query, kept);
 *   if (fresh.tag) kept = { tag: fresh.tag, body: fresh.body };
 */
export async function apiGetRevalidated<T>(
  path: string,
  params: QueryParams | undefined,
  kept: TaggedAnswer<T> | undefined,
  options: RequestOptions = {},
): Promise<{ tag: string | undefined; body: T }> {
  const response = await request(
    'GET',
    buildUrl(path, params),
    undefined,
    options,
    kept ? { 'If-None-Match': kept.tag } : {},
  );
  const tag = response.headers.get('ETag') ?? undefined;
  if (response.status === 304 && kept) return { tag: tag ?? kept.tag, body: kept.body };
  return { tag, body: await readJson<T>(response) };
}

/** How many writes this page has sent (apiSend): an answer kept from before a write is not revalidated after it. */
let writes = 0;
/**
 * A streamed answer (server-sent events): the open response, its body read by the caller; a
 * refusal throws as any call's does, without the forbidden toast.
 */
export async function apiStream(path: string, params?: QueryParams, options: RequestOptions = {}): Promise<Response> {
  return request(
    'GET',
    buildUrl(path, params),
    undefined,
    { ...options, allowForbidden: true },
    {
      Accept: 'text/event-stream',
    },
  );
}

export function writesSent(): number {
  return writes;
}

export async function apiSend<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  writes++;
  return readJson<T>(await request(method, path, body, options));
}

/**
 * Sends a multipart form (a file upload) with the bearer token.
 *
 * @example
 *   const form = new FormData(); form.append('file-0', file); form.append('label', label);
 *   await apiUpload<PackageVersion>('/v1/packages/upload', form);
 */
export async function apiUpload<T>(path: string, form: FormData, options: RequestOptions = {}): Promise<T> {
  writes++;
  return readJson<T>(await request('POST', path, form, options));
}

/** Fetches a binary answer (an image) with the bearer token, e.g. the current user's photo. */
export async function apiGetBlob(path: string, params?: QueryParams, options: RequestOptions = {}): Promise<Blob> {
  const response = await request('GET', buildUrl(path, params), undefined, options);
  return response.blob();
}

/**
 * Fetches a file (CSV export) with the bearer token and hands it to the browser as a download.
 * `onProgress` hears the bytes received so far as they arrive (a long export streams).
 */
export async function apiDownload(
  path: string,
  params: QueryParams,
  fileName: string,
  method: 'GET' | 'POST' = 'GET',
  body?: unknown,
  onProgress?: (bytes: number) => void,
): Promise<void> {
  const response = await request(method, buildUrl(path, params), body, {});
  saveBlob(onProgress ? await readWithProgress(response, onProgress) : await response.blob(), fileName);
}

async function readWithProgress(response: Response, onProgress: (bytes: number) => void): Promise<Blob> {
  const reader = response.body?.getReader();
  if (!reader) return response.blob();
  const parts: BlobPart[] = [];
  let received = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    parts.push(chunk.value);
    received += chunk.value.byteLength;
    onProgress(received);
  }
  return new Blob(parts, { type: response.headers.get('Content-Type') ?? '' });
}

/**
 * Fetches a file whose name the server chooses (its `Content-Disposition`, e.g. an export named
 * after the week it holds) and hands it to the browser under that name, else under `fallbackName`.
 * Answers the name used.
 *
 * @example
 *   await apiDownloadNamed('POST', '/v1/controlsets/Export()', { startDate, tenantId }, 'compliance.csv');
 */
export async function apiDownloadNamed(
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  fallbackName: string,
): Promise<string> {
  const response = await request(method, path, body, {});
  const fileName = fileNameOf(response.headers.get('Content-Disposition')) ?? fallbackName;
  saveBlob(await response.blob(), fileName);
  return fileName;
}

/** The file name of a `Content-Disposition` header (`filename*=UTF-8''…` first, then `filename="…"`). */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // A malformed encoding: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name ? name : undefined;
}

function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(href);
}
