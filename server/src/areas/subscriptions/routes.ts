import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { subscriptionInputSchema, subscriptionSchema } from '@cfs/contracts/tenants';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
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

    registerItemRoutes(app, {
      path: '/v1/subscriptions',
      name: { operation: 'Subscription', words: 'a subscription' },
      area: 'Subscriptions',
      tags,
      params: z.object({ id: z.uuid() }),
      item: subscriptionSchema,
      input: subscriptionInputSchema,
      create: (user, input) => createSubscription(db, user, input),
      update: (user, { id }, input) => updateSubscription(db, user, id, input),
    });
  };
