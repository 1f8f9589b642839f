import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';
import { CLIENT_GONE_MESSAGE, whenClosed } from './reply-closed.js';

/** Reads of one tenant that may wait for a turn; the next is refused (429). */
export const TENANT_WAITING_READS = 200;

export const TENANT_BUSY_MESSAGE = 'Too many requests of this tenant are waiting. Try again shortly.';

interface Share {
  running: number;
  waiting: (() => void)[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route holds its answer open without database work (a stream): it takes no turn of its tenant's reads. */
    holdsNoReads?: boolean;
  }
}

/** The tenant a signed-in caller works in (the header picker's), or the caller alone when none. */
function shareKey(request: FastifyRequest): string | undefined {
  const principal = request.principal;
  if (!principal || request.method !== 'GET' || request.routeOptions.config.holdsNoReads) return undefined;
  return principal.tenantId ?? `user:${principal.userId}`;
}

/**
 * One tenant's reads cannot take the whole database: each tenant runs at most `concurrent`
 * signed-in GET requests at once on this instance (TENANT_CONCURRENT_READS, 1 by default), the
 * rest wait their turn in order, and past TENANT_WAITING_READS waiting the next is refused with
 * 429. Without it a tenant's costly searches (each up to the statement timeout, each holding two
 * connections for its count and its page) filled the connection pool, and every other tenant's
 * requests queued behind them; with two at once on a two-core database server another tenant's
 * p99 still rose fourfold. Machine callers (agents, packets) are limited by rate instead
 * (rate-limits.ts).
 *
 * After the auth gate, which names the caller; the turn is handed on when the answer is sent or
 * the caller goes away.
 */
export function registerTenantShares(app: FastifyInstance, concurrent: number): void {
  const shares = new Map<string, Share>();
  const handOn = (key: string, share: Share) => {
    const next = share.waiting.shift();
    if (next) return next();
    share.running -= 1;
    if (share.running === 0) shares.delete(key);
  };
  app.addHook('onRequest', (request, reply, done) => {
    const key = shareKey(request);
    if (key === undefined) return done();
    // Gone while the gate named it (a page reloaded during its first calls): nothing to answer.
    if (reply.raw.closed) return done(new HttpError(499, CLIENT_GONE_MESSAGE));
    let share = shares.get(key);
    if (!share) shares.set(key, (share = { running: 0, waiting: [] }));
    const current = share;
    const run = () => {
      whenClosed(reply, () => handOn(key, current));
      done();
    };
    if (current.running < concurrent) {
      current.running += 1;
      return run();
    }
    if (current.waiting.length >= TENANT_WAITING_READS) {
      void reply.header('Retry-After', '1');
      return done(new HttpError(429, TENANT_BUSY_MESSAGE));
    }
    current.waiting.push(run);
    // A caller that leaves while waiting gives up its place.
    whenClosed(reply, () => {
      const index = current.waiting.indexOf(run);
      if (index >= 0) current.waiting.splice(index, 1);
    });
  });
}
