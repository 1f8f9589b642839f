import { Agent, buildConnector, request as undiciRequest, type Dispatcher } from 'undici';
import { isIP } from 'node:net';
import {
  MAX_REDIRECTS,
  NOTHING_ALLOWED,
  OutboundRefused,
  REDIRECT_STATUSES,
  requestAfterRedirect,
  resolveGuarded,
  type AddressLookup,
  type OutboundAllow,
} from '@cfs/contracts/outbound-guard';

/**
 * The one outgoing HTTP client of the action runner (DESIGN: outbound HTTP): undici with a
 * guarded connector — every connection, the first and each redirect's, resolves its host, judges
 * the addresses (contracts' outbound-guard.ts) and connects to the judged address itself, with TLS still
 * verifying the name. Connect and total timeouts, at most MAX_RESPONSE_BYTES of a response read,
 * redirects followed by hand (at most MAX_REDIRECTS), each hop judged again.
 */

export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface OutboundOptions {
  allow: OutboundAllow;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  /** How names are resolved: the system resolver unless given (a test names hosts no resolver here knows). */
  lookup?: AddressLookup;
}

export interface OutboundRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  /** The body's first MAX_RESPONSE_BYTES, as text. */
  body: string;
  /** The body was longer than what was read. */
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
  durationMs: number;
}

/** The call did not reach an answer: a network error or a timeout (worth retrying). */
export class OutboundNetworkError extends Error {}

const DEFAULTS: OutboundOptions = { allow: NOTHING_ALLOWED, connectTimeoutMs: 5000, totalTimeoutMs: 15_000 };
let current: { options: OutboundOptions; agent: Agent } | undefined;

/** The guarded dispatcher: connects only to addresses the guard let through. */
function guardedAgent(options: OutboundOptions): Agent {
  const connect = buildConnector({ timeout: options.connectTimeoutMs });
  return new Agent({
    connections: 64,
    headersTimeout: options.totalTimeoutMs,
    bodyTimeout: options.totalTimeoutMs,
    connect(connectOptions, callback) {
      const host = connectOptions.hostname;
      const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
      resolveGuarded(options.allow, host, port, options.connectTimeoutMs, options.lookup).then(
        (target) => {
          const literal = isIP(host.replace(/^\[|\]$/g, '')) !== 0;
          connect(
            {
              ...connectOptions,
              hostname: target.address,
              ...(literal ? {} : { servername: connectOptions.servername ?? host }),
            },
            callback,
          );
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
      );
    },
  });
}

/** Sets the client's allow list and timeouts (the runtime does, from OUTBOUND_ALLOW); closes the previous dispatcher. */
export function configureOutbound(options: Partial<OutboundOptions>): void {
  const previous = current;
  const merged = { ...DEFAULTS, ...(current?.options ?? {}), ...options };
  current = { options: merged, agent: guardedAgent(merged) };
  void previous?.agent.close().catch(() => undefined);
}

function client(): { options: OutboundOptions; agent: Agent } {
  if (!current) configureOutbound({});
  return current as { options: OutboundOptions; agent: Agent };
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/** Reads at most `limit` bytes of a body and drops the rest. */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  limit: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = limit - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size = limit;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  if (truncated) body.destroy();
  return { text: Buffer.concat(chunks, size).toString('utf8'), truncated };
}

function isHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundRefused(`"${text}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRefused(`Only http and https URLs may be called, not ${url.protocol}.`);
  if (url.username || url.password)
    throw new OutboundRefused('A URL may not carry a user name or password; use a header.');
  return url;
}

/**
 * Makes one call through the guarded client. Throws OutboundRefused (the guard said no, or the URL
 * cannot be called) and OutboundNetworkError (no answer in time, or the connection failed).
 */
export async function sendOutbound(outbound: OutboundRequest): Promise<OutboundResponse> {
  const { options, agent } = client();
  const started = performance.now();
  const signal = AbortSignal.timeout(options.totalTimeoutMs);
  let url = isHttpUrl(outbound.url);
  let { method, body } = outbound;
  let headers = { ...outbound.headers };
  for (let hop = 0; ; hop++) {
    let response: Dispatcher.ResponseData;
    try {
      response = await undiciRequest(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        dispatcher: agent,
        signal,
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof OutboundRefused ? error.cause : error;
      if (cause instanceof OutboundRefused) throw cause;
      if (signal.aborted) throw new OutboundNetworkError(`No answer within ${options.totalTimeoutMs} ms.`);
      const code = (cause as { code?: unknown }).code;
      throw new OutboundNetworkError(
        `The call failed: ${cause instanceof Error ? cause.message : String(cause)}${typeof code === 'string' ? ` (${code})` : ''}`,
      );
    }
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === 'string') {
      await response.body.dump().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw new OutboundRefused(`More than ${MAX_REDIRECTS} redirects.`);
      const next = isHttpUrl(new URL(location, url).toString());
      const after = requestAfterRedirect(response.statusCode, { url, method, headers }, next);
      ({ method, headers } = after);
      if (!after.keepsBody) body = null;
      url = next;
      continue;
    }
    let read: { text: string; truncated: boolean };
    try {
      read = await readCapped(response.body, MAX_RESPONSE_BYTES);
    } catch (error) {
      throw new OutboundNetworkError(
        signal.aborted
          ? `No answer within ${options.totalTimeoutMs} ms.`
          : `Reading the answer failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return {
      status: response.statusCode,
      headers: flatHeaders(response.headers),
      body: read.text,
      truncated: read.truncated,
      url: url.toString(),
      durationMs: Math.round(performance.now() - started),
    };
  }
}
