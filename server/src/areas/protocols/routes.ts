import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { matchedRuleSchema, protocolInputSchema, protocolRefSchema, protocolSchema } from '@cfs/contracts/protocols';
import { dbIdParam, guid } from '@cfs/contracts/fields';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import {
  createProtocol,
  deleteProtocol,
  findMatchedRules,
  findProtocol,
  findProtocolsForAction,
  updateProtocol,
} from './commands.js';
import { protocolEntity } from './resource.js';

const tags = ['Protocols'];
const params = z.object({ id: dbIdParam });

/** Protocols (spec 002 §2 Protocols, §3, §5, §7 "Protocols and protocol actions"). */
export const protocolRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/protocols',
      title: 'protocols',
      resource: protocolEntity.resource,
      row: protocolEntity.contract,
      // Also the work unit form's protocol lookup: its users hold WorkUnits permissions.
      permission: ['WorkUnits.Protocols:view', 'WorkUnits:view'],
      base: (user) => scoped(db, user.tenantScope).selectFrom('protocol').selectAll(),
      exportFileName: 'protocols.csv',
      tags,
    });

    app.get(
      '/v1/protocols/GetMatchedRules',
      {
        config: { permission: 'WorkUnits.Protocols:view' },
        schema: {
          tags,
          operationId: 'listProtocolMatchedRules',
          summary: 'List the rules whose work units follow a protocol',
          description: 'Also answered as the spec spells it: GetMatchedRules(id={id}).',
          querystring: z.object({ id: dbIdParam }),
          response: { 200: z.object({ value: z.array(matchedRuleSchema), count: z.number().int() }) },
        },
      },
      async (request) => findMatchedRules(db, principalOf(request).tenantScope, request.query.id),
    );

    // Read by the action catalogue's two-step delete too: either area's viewers.
    app.get(
      '/v1/protocols/GetProtocolsForAction',
      {
        config: { permission: ['WorkUnits.Protocols:view', 'ActionDefinitions:view'] },
        schema: {
          tags,
          operationId: 'listProtocolsForAction',
          summary: 'List the protocols with a step that runs an action',
          description: 'Also answered as the spec spells it: GetProtocolsForAction(actionDefinitionId={id}).',
          querystring: z.object({ actionDefinitionId: guid() }),
          response: { 200: z.array(protocolRefSchema) },
        },
      },
      async (request) => findProtocolsForAction(db, principalOf(request).tenantScope, request.query.actionDefinitionId),
    );

    registerItemRoutes(app, {
      path: '/v1/protocols',
      name: { operation: 'Protocol', words: 'a protocol' },
      area: 'WorkUnits.Protocols',
      tags,
      params,
      item: protocolSchema,
      input: protocolInputSchema,
      get: (user, { id }) => findProtocol(db, user.tenantScope, id),
      create: (user, input) => createProtocol(db, user, input),
      update: (user, { id }, input) => updateProtocol(db, user, id, input),
      delete: { response: z.object({ message: z.string() }), run: (user, { id }) => deleteProtocol(db, user, id) },
      own: { delete: { description: 'Its steps go with it; its work units stay, following no protocol.' } },
    });
  };
