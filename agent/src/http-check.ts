import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import {
  MAX_REDIRECTS,
  OutboundRefused,
  parseOutboundAllow,
  portOf,
  REDIRECT_STATUSES,
  requestAfterRedirect,
  resolveGuarded,
  type AddressLookup,
  type OutboundAllow,
} from '@cfs/contracts/outbound-guard';

/** Outbound calls of operations: a timeout on each, and at most this much of a body read. */
export const MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Where an operation may connect (DESIGN: outbound HTTP, SSRF-safe agent checks). An operation is
 * configured in the portal by the tenant's people, and the agent runs inside the customer's
 * network, so without a guard a check could read the cloud metadata service or any internal
 * address and bring the answer back to the portal. The portal the agent is enrolled with may
 * always be called; other loopback, private, link-local or reserved targets only when this
 * machine's owner lists them (CFS_AGENT_OUTBOUND_ALLOW, the syntax of the portal's OUTBOUND_ALLOW).
 */
export interface OutboundPolicy {
  allow: OutboundAllow;
  /** How names are resolved: the system resolver unless given. */
  lookup?: AddressLookup;
}

/** The agent's policy: its portal's host and port, and what the machine's owner lists. */
export function outboundPolicy(portalUrl: string, allowText = ''): OutboundPolicy {
  const portal = new URL(portalUrl);
  return { allow: parseOutboundAllow([`${portal.hostname}:${portOf(portal)}`, allowText].filter(Boolean).join(',')) };
}

export interface HttpOutcome {
  status: number;
  ms: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

async function readCapped(response: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      response.destroy();
      throw new Error(`The response is larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function callableUrl(text: string): URL {
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`Only http and https addresses can be called, not ${url.protocol}`);
  if (url.username || url.password)
    throw new OutboundRefused('An address may not carry a user name or password; use a header.');
  return url;
}

/** One request to the address the guard judged for the URL's host (TLS still verifies the name). */
async function send(
  policy: OutboundPolicy,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const port = portOf(url);
  const target = await resolveGuarded(policy.allow, url.hostname, port, timeoutMs, policy.lookup);
  const literal = net.isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      {
        host: target.address,
        family: target.family,
        port,
        method,
        path: `${url.pathname}${url.search}`,
        headers: { host: url.host, ...headers },
        agent: false,
        signal,
        ...(literal ? {} : { servername: url.hostname }),
      },
      resolve,
    );
    request.once('error', reject);
    request.end(body);
  });
}

/** An HTTP(S) call through the guard: every hop's host judged, redirects followed by hand (at most MAX_REDIRECTS). */
export async function httpRequest(
  policy: OutboundPolicy,
  address: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<HttpOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  let url = callableUrl(address);
  let method = options.method ?? 'GET';
  let headers = { ...(options.headers ?? {}) };
  let body = options.body;
  for (let hop = 0; ; hop++) {
    const response = await send(policy, url, method, headers, body, timeoutMs, signal);
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new OutboundRefused(`More than ${MAX_REDIRECTS} redirects`);
      const next = callableUrl(new URL(location, url).toString());
      const after = requestAfterRedirect(response.statusCode ?? 0, { url, method, headers }, next);
      ({ method, headers } = after);
      if (!after.keepsBody) body = undefined;
      url = next;
      continue;
    }
    const text = method === 'HEAD' ? '' : await readCapped(response);
    return {
      status: response.statusCode ?? 0,
      ms: Math.round(performance.now() - started),
      body: text,
      headers: response.headers,
    };
  }
}

/** Opens a TCP connection to the address the guard judged and closes it: the port answers or it does not. */
export async function tcpCheck(
  policy: OutboundPolicy,
  host: string,
  port: number,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<{ ms: number }> {
  const started = performance.now();
  const target = await resolveGuarded(policy.allow, host, port, timeoutMs, policy.lookup);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.address, family: target.family, port });
    socket.setTimeout(timeoutMs);
    socket.once('connect', () => {
      socket.destroy();
      resolve({ ms: Math.round(performance.now() - started) });
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`No answer from ${host}:${port} within ${timeoutMs} ms`));
    });
    socket.once('error', (error) => {
      socket.destroy();
      reject(error);
    });
  });
}
