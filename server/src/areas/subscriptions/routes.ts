import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { subscriptionInputSchema, subscriptionSchema } from '@cfs/contracts/tenants';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { createSubscription, updateSubscription } from './commands.js';
import { subscriptionEntity } from './resource.js';

const tags = ['Subscriptions'];

export const subscriptionRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/subscriptions',
      title: 'subscriptions',
      resource: subscriptionEntity.resource,
      row: subscriptionEntity.contract,
      permission: 'Subscriptions:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('subscription').selectAll(),
      exportFileName: 'subscriptions.csv',
      tags,
    });

    app.put(
      '/v1/subscriptions',
      {
        config: { permission: 'Subscriptions:create' },
        schema: {
          tags,
          operationId: 'createSubscription',
          summary: 'Create a subscription',
          body: subscriptionInputSchema,
          response: { 200: subscriptionSchema },
        },
      },
      async (request) => createSubscription(db, principalOf(request), request.body),
    );

    app.post(
      '/v1/subscriptions/:id',
      {
        config: { permission: 'Subscriptions:edit' },
        schema: {
          tags,
          operationId: 'updateSubscription',
          summary: 'Update a subscription',
          params: z.object({ id: z.uuid() }),
          body: subscriptionInputSchema,
          response: { 200: subscriptionSchema },
        },
      },
      async (request) => updateSubscription(db, principalOf(request), request.params.id, request.body),
    );
  };
