import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';

/** 200 once the server is ready to serve: listening, migrated, and its database answering. */
export const healthRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  app.get('/healthz', { config: { permission: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    await sql`SELECT 1`.execute(db);
    return reply.send({ status: 'ok' });
  });
};
