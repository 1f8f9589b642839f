import type { FastifyInstance } from 'fastify';

/**
 * An answer sent before its request's body was read whole (a package file refused in the middle
 * of its upload, over PACKAGE_UPLOAD_MAX_MB) says `Connection: close`. Once a reader has stopped,
 * Node does not discard the rest of the body, and the client's next request on that keep-alive
 * connection would wait until the connection timed out. (`complete` is false only on a real
 * connection: a request injected in a test has no such flag.)
 */
export function registerUnreadBodyClose(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete === false) void reply.header('Connection', 'close');
    done(null, payload);
  });
}
