import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { metrics } from './metrics.js';
import { currentRequestId, runWithRequestId } from './request-context.js';

/** A request id a proxy or client sent that is fit for a log line; anything else gets a new one. */
const SENT_ID = /^[\w.:-]{1,128}$/;

/** Fastify's `genReqId`: the caller's `X-Request-Id` when it is sane, else a new UUID (unique across instances). */
export function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && SENT_ID.test(sent) ? sent : randomUUID();
}

/**
 * Every request: its id answered in `X-Request-Id` and kept as the context of its work (jobs it
 * enqueues carry it), and its duration counted by route pattern for `/metrics`. Registered first.
 */
export function registerRequestObservability(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-Id', request.id);
    // The hooks, the handler and whatever they start (promises, timers) run within `done`.
    runWithRequestId(request.id, done);
  });
  // The body's 'end' event runs validation and the handler in the socket's context, not the
  // request's: re-enter it. A request without a body is still in it.
  app.addHook('preValidation', (request, _reply, done) => {
    if (currentRequestId() === request.id) done();
    else runWithRequestId(request.id, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequestSeconds.observe(
      { method: request.method, route: request.routeOptions.url ?? '(unmatched)', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
