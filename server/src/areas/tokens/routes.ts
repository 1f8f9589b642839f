import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generatedTokenSchema, tokenCreateSchema, tokenGrantSchema, tokenUpdateSchema } from '@cfs/contracts/tokens';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { createToken, revokeToken, updateToken } from './commands.js';
import { tokenEntity } from './resource.js';

const tags = ['Tokens'];
const params = z.object({ id: z.uuid() });

/** Tenant API tokens (spec 001 §7 Tokens). */
export const tokenRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/tokens',
      title: 'API tokens',
      resource: tokenEntity.resource,
      row: tokenEntity.contract,
      permission: 'Tokens:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('token_grant').selectAll(),
      exportFileName: 'tokens.csv',
      tags,
    });

    app.put(
      '/v1/tokens',
      {
        config: { permission: 'Tokens:create' },
        schema: {
          tags,
          operationId: 'createApiToken',
          summary: 'Create an API token',
          description: 'The answer holds the token itself, this once: it is never shown again.',
          body: tokenCreateSchema,
          response: { 200: generatedTokenSchema },
        },
      },
      async (request, reply) =>
        reply.header('Cache-Control', 'no-store').send(await createToken(db, principalOf(request), request.body)),
    );

    app.post(
      '/v1/tokens/:id',
      {
        config: { permission: 'Tokens:edit' },
        schema: {
          tags,
          operationId: 'updateApiToken',
          summary: 'Update an API token',
          params,
          body: tokenUpdateSchema,
          response: { 200: tokenGrantSchema },
        },
      },
      async (request) => updateToken(db, principalOf(request), request.params.id, request.body),
    );

    app.put(
      '/v1/tokens/:id/revoke',
      {
        config: { permission: 'Tokens:edit' },
        schema: {
          tags,
          operationId: 'revokeApiToken',
          summary: 'Revoke an API token',
          description: 'The token is refused from now on; revoking it again keeps the first date.',
          params,
          response: { 200: tokenGrantSchema },
        },
      },
      async (request) => revokeToken(db, principalOf(request), request.params.id),
    );
  };
