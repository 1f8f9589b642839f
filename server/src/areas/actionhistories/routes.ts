import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actionHistoryDetailSchema, actionHistoryRowSchema } from '@cfs/contracts/action-histories';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { findActionHistory } from './queries.js';
import { actionHistoriesResource } from './resource.js';

/** Action history (spec 002 §3 ActionHistory, §7): what each action run did, suppressed runs included. */
export const actionHistoryRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  registerListRoutes(app, db, {
    path: '/v1/actionHistories',
    resource: actionHistoriesResource,
    row: actionHistoryRowSchema,
    permission: perm('ActionDefinitions', 'view'),
    base: (user) => scoped(db, user.tenantScope).selectFrom('action_history').selectAll(),
    exportFileName: 'actionhistories.csv',
    tags: ['Action History'],
  });

  app.get(
    '/v1/actionHistories/:id',
    { config: { permission: perm('ActionDefinitions', 'view') }, schema: { tags: ['Action History'], params: z.object({ id: z.coerce.number().int().positive() }), response: { 200: actionHistoryDetailSchema } } },
    async (request) => findActionHistory(db, principalOf(request).tenantScope, request.params.id),
  );
};
