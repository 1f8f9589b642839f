import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every answer. The middleware is built once from the options and
 * applied per request; the Fastify wrapper (@fastify/helmet) rebuilds it, parsing the content
 * security policy again, on every request, which cost more than the rest of a cached sign-in check.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}
