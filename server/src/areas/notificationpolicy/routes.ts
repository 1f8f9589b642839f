import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { notificationPolicyInputSchema, notificationPolicySchema } from '@cfs/contracts/notification-policy';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { findPolicy, savePolicy } from './commands.js';

const tags = ['Notification policy'];
const params = z.object({ tenantId: guid() });

/** A tenant's notification policy: read with the Rules view permission, changed with Rules edit. */
export const notificationPolicyRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    app.get(
      '/v1/notificationpolicy/:tenantId',
      {
        config: { permission: 'Rules:view' },
        schema: {
          tags,
          operationId: 'getNotificationPolicy',
          summary: "Get a tenant's notification policy",
          description: 'A tenant that never had one answers repeatEvery null: notifications do not repeat.',
          params,
          response: { 200: notificationPolicySchema },
        },
      },
      async (request) => findPolicy(db, principalOf(request), request.params.tenantId),
    );
    app.put(
      '/v1/notificationpolicy/:tenantId',
      {
        config: { permission: 'Rules:edit' },
        schema: {
          tags,
          operationId: 'saveNotificationPolicy',
          summary: "Set a tenant's notification policy",
          description:
            'repeatEvery (HH:mm:ss, 1 minute to 7 days, or null): how often the Send Email and HTTP match actions of an open match run again while nobody has acknowledged it and no silence or maintenance holds it.',
          params,
          body: notificationPolicyInputSchema,
          response: { 200: notificationPolicySchema },
        },
      },
      async (request) => savePolicy(db, principalOf(request), request.params.tenantId, request.body),
    );
  };
