import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { currentUserSchema, permissionListSchema, tenantSubscriptionContextSchema } from '@cfs/contracts/shell';
import type { AppDeps } from '../../app-deps.js';
import { currentUserOf } from '../../auth/principal.js';
import { principalOf } from '../../http/route-permission.js';
import { avatarSvg } from './avatar.js';
import { setTenantSubscriptionContext } from './commands.js';

const tags = ['Current user'];

export const currentUserRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    app.get(
      '/v1/currentUser',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'getCurrentUser',
          summary: 'Get the signed-in user',
          response: { 200: currentUserSchema },
        },
      },
      async (request) => currentUserOf(principalOf(request)),
    );

    app.get(
      '/v1/permissions',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'listCurrentUserPermissions',
          summary: "List the signed-in user's permissions",
          response: { 200: permissionListSchema },
        },
      },
      async (request) => principalOf(request).permissionStrings,
    );

    // The directory keeps no photos yet, so every user gets a generated avatar with their initials.
    app.get(
      '/api/auth/currentUserPhoto',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'getCurrentUserPhoto',
          summary: "Get the signed-in user's photo",
          description: "An SVG avatar with the user's initials (image/svg+xml): the directory keeps no photos.",
        },
      },
      async (request, reply) => {
        const user = principalOf(request);
        return reply
          .type('image/svg+xml')
          .header('Cache-Control', 'private, max-age=3600')
          .send(avatarSvg(user.displayName, user.userId));
      },
    );

    app.post(
      '/v1/tenantSubscriptionContext/:tenant',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'setTenantSubscriptionContext',
          summary: 'Choose the tenant and subscription to work in',
          description: "The tenant in the path and in the body must be the same, and the subscription the tenant's.",
          params: z.object({ tenant: guid('Please choose a tenant.') }),
          body: tenantSubscriptionContextSchema,
          response: { 200: tenantSubscriptionContextSchema },
        },
      },
      async (request) => setTenantSubscriptionContext(db, principalOf(request), request.params.tenant, request.body),
    );
  };
