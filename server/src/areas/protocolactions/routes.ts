import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { manualActionSchema, protocolActionInputSchema, protocolActionSchema, triggerInputSchema } from '@cfs/contracts/automation';
import { dbIdParam, guid } from '@cfs/contracts/fields';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { createProtocolAction, deleteProtocolAction, findProtocolAction, updateProtocolAction } from './commands.js';
import { findManualActions, triggerManualAction } from './manual.js';
import { protocolActionsResource } from './resource.js';

const tags = ['Protocol Actions'];
const params = z.object({ id: guid() });
const AREA = 'WorkUnits.Protocols';

/** Protocol actions (spec 002 §7) and a work unit's manual actions (spec 001 §2 Pending Actions, §7). */
export const protocolActionRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  registerListRoutes(app, db, {
    path: '/v1/protocolActions',
    resource: protocolActionsResource,
    row: protocolActionSchema,
    // The work unit panel's Protocols tab reads a protocol's steps too.
    permission: [perm(AREA, 'view'), perm('WorkUnits', 'view')],
    base: (user) => scoped(db, user.tenantScope).selectFrom('protocol_action').selectAll(),
    exportFileName: 'protocol-actions.csv',
    tags,
  });

  app.get('/v1/protocolActions/:id', { config: { permission: perm(AREA, 'view') }, schema: { tags, params, response: { 200: protocolActionSchema } } }, async (request) =>
    findProtocolAction(db, principalOf(request).tenantScope, request.params.id),
  );

  app.put('/v1/protocolActions', { config: { permission: perm(AREA, 'create') }, schema: { tags, body: protocolActionInputSchema, response: { 200: protocolActionSchema } } }, async (request) =>
    createProtocolAction(db, principalOf(request), request.body),
  );

  app.post('/v1/protocolActions/:id', { config: { permission: perm(AREA, 'edit') }, schema: { tags, params, body: protocolActionInputSchema, response: { 200: protocolActionSchema } } }, async (request) =>
    updateProtocolAction(db, principalOf(request), request.params.id, request.body),
  );

  app.delete('/v1/protocolActions/:id', { config: { permission: perm(AREA, 'delete') }, schema: { tags, params, response: { 200: z.object({ message: z.string() }) } } }, async (request) =>
    deleteProtocolAction(db, principalOf(request), request.params.id),
  );

  app.get(
    '/v1/workunits/:id/manualActions',
    {
      config: { permission: perm('WorkUnits', 'view') },
      schema: { tags: ['Work Units'], params: z.object({ id: dbIdParam }), querystring: z.object({ scope: z.enum(['current', 'all']).optional().default('current') }), response: { 200: z.array(manualActionSchema) } },
    },
    async (request) => findManualActions(db, principalOf(request).tenantScope, request.params.id, request.query.scope),
  );

  app.post(
    '/v1/workunits/:id/protocolActions/:protocolActionId/trigger',
    {
      config: { permission: perm('WorkUnits', 'edit') },
      schema: { tags: ['Work Units'], params: z.object({ id: dbIdParam, protocolActionId: guid() }), body: triggerInputSchema, response: { 200: z.object({ id: z.string() }), 202: z.object({ id: z.string() }) } },
    },
    async (request, reply) => {
      const { id, status } = await triggerManualAction(db, principalOf(request), request.params.id, request.params.protocolActionId, request.body);
      return reply.code(status).send({ id });
    },
  );
};
