import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { notificationPolicyInputSchema, notificationPolicySchema } from '@cfs/contracts/notification-policy';
import type { AppDeps } from '../../app-deps.js';
import { registerTenantDocumentRoutes } from '../../http/tenant-document-routes.js';
import { findPolicy, savePolicy } from './commands.js';

const tags = ['Notification policy'];
const params = z.object({ tenantId: guid() });

/** A tenant's notification policy: read with the Rules view permission, changed with Rules edit. */
export const notificationPolicyRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerTenantDocumentRoutes(app, {
      path: '/v1/notificationpolicy',
      operation: 'NotificationPolicy',
      tags,
      params,
      document: notificationPolicySchema,
      input: notificationPolicyInputSchema,
      get: {
        permission: 'Rules:view',
        summary: "Get a tenant's notification policy",
        description: 'A tenant that never had one answers repeatEvery null: notifications do not repeat.',
        run: (user, tenantId) => findPolicy(db, user, tenantId),
      },
      save: {
        permission: 'Rules:edit',
        summary: "Set a tenant's notification policy",
        description:
          'repeatEvery (HH:mm:ss, 1 minute to 7 days, or null): how often the Send Email and HTTP match actions of an open match run again while nobody has acknowledged it and no silence or maintenance holds it.',
        run: (user, tenantId, input) => savePolicy(db, user, tenantId, input),
      },
    });
  };
