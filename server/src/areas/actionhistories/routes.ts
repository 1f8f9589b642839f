import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionHistoryRowSchema } from '@cfs/contracts/action-histories';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm } from '../../http/route-permission.js';
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
};
