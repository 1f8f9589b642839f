import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * What Helmet does to an answer with these options, found once: the headers it sets and those it
 * removes. Options that read the request (a directive given as a function, e.g. a nonce) would make
 * the headers differ per request, so they are refused here rather than frozen.
 */
export function securityHeadersOf(options: HelmetOptions): { set: [string, string][]; removed: string[] } {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const request = new Proxy({} as IncomingMessage, {
    get: () => {
      throw new Error('These security headers depend on the request: they cannot be computed once');
    },
  });
  const response = {
    setHeader: (name: string, value: unknown) => set.set(name, Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => removed.push(name),
  } as unknown as ServerResponse;
  let finished = false;
  helmet(options)(request, response, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    finished = true;
  });
  if (!finished) throw new Error('Helmet did not set its headers at once');
  return { set: [...set], removed };
}

/**
 * Helmet's security headers on every answer, set on the raw response so that answers written past
 * Fastify (the identity provider's) carry them too. They depend on nothing in the request, so they
 * are found once (securityHeadersOf) and only set per request: running Helmet's middleware chain
 * on each request cost more than the rest of a cached sign-in check (the Fastify wrapper,
 * @fastify/helmet, even parsed the content security policy again each time).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const { set, removed } = securityHeadersOf(options);
  const isHsts = ([name]: [string, string]) => name.toLowerCase() === 'strict-transport-security';
  const always = set.filter((header) => !isHsts(header));
  const overHttps = set.filter(isHsts);
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const name of removed) raw.removeHeader(name);
    for (const [name, value] of always) raw.setHeader(name, value);
    // RFC 6797 §7.2: HSTS over plain HTTP is ignored at best; it is sent only on an answer that
    // arrives over HTTPS (the connection's own, or X-Forwarded-Proto from a trusted proxy).
    if (request.protocol === 'https') for (const [name, value] of overHttps) raw.setHeader(name, value);
    done();
  });
}
