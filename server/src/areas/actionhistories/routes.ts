import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actionHistoryDetailSchema, actionHistoryRowSchema } from '@cfs/contracts/action-histories';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { findActionHistory } from './queries.js';
import { actionHistoriesResource } from './resource.js';

const tags = ['Action history'];

/** Action history (spec 002 §3 ActionHistory, §7): what each action run did, suppressed runs included. */
export const actionHistoryRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/actionHistories',
      title: 'action history entries',
      resource: actionHistoriesResource,
      row: actionHistoryRowSchema,
      permission: 'ActionDefinitions:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('action_history').selectAll(),
      exportFileName: 'actionhistories.csv',
      tags,
    });

    app.get(
      '/v1/actionHistories/:id',
      {
        config: { permission: 'ActionDefinitions:view' },
        schema: {
          tags,
          operationId: 'getActionHistory',
          summary: 'Get an action run with what it sent and received',
          params: z.object({ id: z.coerce.number().int().positive() }),
          response: { 200: actionHistoryDetailSchema },
        },
      },
      async (request) => findActionHistory(db, principalOf(request).tenantScope, request.params.id),
    );
  };
