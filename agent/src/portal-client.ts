import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** An answer of the portal that is not 2xx; `status` 0 when it could not be reached at all. */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PortalError';
  }

  /** The portal no longer accepts this credential or token (revoked, disabled, deleted). */
  get refused(): boolean {
    return this.status === 401;
  }

  /** Worth trying again later: the portal was unreachable, overloaded or failing. */
  get transient(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

const TIMEOUT_MS = 30_000;

/** The agent's calls to the portal, with a timeout each; `bearer` is the device credential or, to enrol, the tenant token. */
export class PortalClient {
  constructor(
    readonly baseUrl: string,
    readonly userAgent: string,
  ) {}

  url(path: string): string {
    return new URL(path, `${this.baseUrl.replace(/\/+$/, '')}/`).toString();
  }

  private async fetch(
    path: string,
    init: Omit<RequestInit, 'signal'> & { bearer: string; timeoutMs?: number; signal?: AbortSignal },
  ): Promise<Response> {
    const timeout = AbortSignal.timeout(init.timeoutMs ?? TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(path.startsWith('http') ? path : this.url(path), {
        ...init,
        headers: {
          ...(init.headers as Record<string, string> | undefined),
          authorization: `Bearer ${init.bearer}`,
          'user-agent': this.userAgent,
        },
        signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
      });
    } catch (error) {
      throw new PortalError(0, `The portal at ${this.baseUrl} could not be reached: ${(error as Error).message}`);
    }
    if (!response.ok && response.status !== 304) {
      const text = await response.text().catch(() => '');
      let message = text.slice(0, 500);
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // Not JSON (a proxy's error page): the text as it is.
      }
      throw new PortalError(response.status, message || `HTTP ${response.status}`);
    }
    return response;
  }

  async json<T>(method: 'GET' | 'POST', path: string, bearer: string, body?: unknown): Promise<T | undefined> {
    const response = await this.fetch(path, {
      method,
      bearer,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    if (response.status === 204) return undefined;
    const text = await response.text();
    return text ? (JSON.parse(text) as T) : undefined;
  }

  /**
   * A GET answered only when it is no longer `known` (its last ETag): the portal may hold the call
   * up to `waitSeconds` for a change (`Prefer: wait`). `held` says whether it holds such calls (Preference-Applied);
   * `body` is absent when the answer is still `known` (304). `signal` ends the call early (the agent stops).
   */
  async revalidated<T>(
    path: string,
    bearer: string,
    known: string | undefined,
    waitSeconds: number,
    signal?: AbortSignal,
  ): Promise<{ body: T | undefined; tag: string | undefined; held: boolean }> {
    const headers: Record<string, string> = {
      ...(waitSeconds > 0 ? { prefer: `wait=${waitSeconds}` } : {}),
      ...(known ? { 'if-none-match': known } : {}),
    };
    const response = await this.fetch(path, {
      method: 'GET',
      bearer,
      headers,
      timeoutMs: TIMEOUT_MS + waitSeconds * 1000,
      ...(signal ? { signal } : {}),
    });
    const tag = response.headers.get('etag') ?? undefined;
    const held = response.headers.has('preference-applied');
    if (response.status === 304) return { body: undefined, tag, held };
    const text = await response.text();
    return { body: text ? (JSON.parse(text) as T) : undefined, tag, held };
  }

  /** Streams a file to `destination` (a package version), without holding it in memory. */
  async download(url: string, bearer: string, destination: string): Promise<void> {
    const response = await this.fetch(url, { method: 'GET', bearer, timeoutMs: 10 * 60_000 });
    if (!response.body) throw new PortalError(0, 'The download had no content');
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      createWriteStream(destination, { mode: 0o600 }),
    );
  }
}
