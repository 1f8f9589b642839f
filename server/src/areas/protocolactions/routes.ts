import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { manualActionSchema, triggerInputSchema } from '@cfs/contracts/automation';
import { protocolActionBodySchema, protocolActionSchema } from '@cfs/contracts/protocols';
import { dbIdParam, guid } from '@cfs/contracts/fields';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { createProtocolAction, deleteProtocolAction, findProtocolAction, updateProtocolAction } from './commands.js';
import { findManualActions, triggerManualAction } from './manual.js';
import { protocolActionEntity } from './resource.js';

const tags = ['Protocol actions'];
const params = z.object({ id: guid() });
const parametersForms =
  '`parameters` in either wire form: an object of names and texts, `{ "Template": "Simple" }` (ours), ' +
  'or its JSON text, `"{\\"Template\\":\\"Simple\\"}"` (the spec\'s). Only the parameters the action ' +
  'names are kept (spec 002 §4).';

/** Protocol actions (spec 002 §7) and a work unit's manual actions (spec 001 §2 Pending Actions, §7). */
export const protocolActionRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/protocolActions',
      title: 'protocol actions',
      resource: protocolActionEntity.resource,
      row: protocolActionEntity.contract,
      // The work unit panel's Protocols tab reads a protocol's steps too.
      permission: ['WorkUnits.Protocols:view', 'WorkUnits:view'],
      base: (user) => scoped(db, user.tenantScope).selectFrom('protocol_action').selectAll(),
      exportFileName: 'protocol-actions.csv',
      tags,
    });

    registerItemRoutes(app, {
      path: '/v1/protocolActions',
      name: { operation: 'ProtocolAction', words: 'a protocol action' },
      area: 'WorkUnits.Protocols',
      tags,
      params,
      item: protocolActionSchema,
      input: protocolActionBodySchema,
      get: (user, { id }) => findProtocolAction(db, user.tenantScope, id),
      create: (user, input) => createProtocolAction(db, user, input),
      update: (user, { id }, input) => updateProtocolAction(db, user, id, input),
      delete: {
        response: z.object({ message: z.string() }),
        run: (user, { id }) => deleteProtocolAction(db, user, id),
      },
      own: { create: { description: parametersForms }, update: { description: parametersForms } },
    });

    app.get(
      '/v1/workunits/:id/manualActions',
      {
        config: { permission: 'WorkUnits:view' },
        schema: {
          tags: ['Work units'],
          operationId: 'listWorkUnitManualActions',
          summary: "List a work unit's manual protocol actions",
          params: z.object({ id: dbIdParam }),
          querystring: z.object({ scope: z.enum(['current', 'all']).optional().default('current') }),
          response: { 200: z.array(manualActionSchema) },
        },
      },
      async (request) =>
        findManualActions(db, principalOf(request).tenantScope, request.params.id, request.query.scope),
    );

    app.post(
      '/v1/workunits/:id/protocolActions/:protocolActionId/trigger',
      {
        config: { permission: 'WorkUnits:edit' },
        schema: {
          tags: ['Work units'],
          operationId: 'triggerWorkUnitProtocolAction',
          summary: 'Run or reject a manual protocol action of a work unit',
          description:
            'Answers 202 when the run is queued and 200 when the step is rejected. ' +
            'The body in either form of spec 001 §7: `{ workUnitEventType, userDefinedParams, reject }` or ' +
            "`{ workUnitId, workUnitEventTypeId, protocolActionId, userDefinedParams: '{}', reject }`; " +
            '`userDefinedParams` is an object of names and texts or its JSON text.',
          params: z.object({ id: dbIdParam, protocolActionId: guid() }),
          body: triggerInputSchema,
          response: { 200: z.object({ id: z.string() }), 202: z.object({ id: z.string() }) },
        },
      },
      async (request, reply) => {
        const { id, status } = await triggerManualAction(
          db,
          principalOf(request),
          request.params.id,
          request.params.protocolActionId,
          request.body,
        );
        return reply.code(status).send({ id });
      },
    );
  };
