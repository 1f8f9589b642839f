import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { currentUserSchema, permissionListSchema, tenantSubscriptionContextSchema } from '@cfs/contracts/shell';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { avatarSvg } from './avatar.js';
import { setTenantSubscriptionContext } from './commands.js';

const tags = ['Current user'];

export const currentUserRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  app.get('/v1/currentUser', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: currentUserSchema } } }, async (request) => {
    const user = principalOf(request);
    return { name: user.displayName, userName: user.userName, email: user.email, tenantId: user.tenantId, subscriptionId: user.subscriptionId, groups: user.groups };
  });

  app.get('/v1/permissions', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: permissionListSchema } } }, async (request) =>
    principalOf(request).permissionStrings,
  );

  // The directory keeps no photos yet, so every user gets a generated avatar with their initials.
  app.get('/api/auth/currentUserPhoto', { config: { permission: 'authenticated' }, schema: { tags } }, async (request, reply) => {
    const user = principalOf(request);
    return reply.type('image/svg+xml').header('Cache-Control', 'private, max-age=3600').send(avatarSvg(user.displayName, user.userId));
  });

  app.post(
    '/v1/tenantSubscriptionContext/:tenant',
    {
      config: { permission: 'authenticated' },
      schema: { tags, params: z.object({ tenant: guid('Please choose a tenant.') }), body: tenantSubscriptionContextSchema, response: { 200: tenantSubscriptionContextSchema } },
    },
    async (request) => setTenantSubscriptionContext(db, principalOf(request), request.params.tenant, request.body),
  );
};
