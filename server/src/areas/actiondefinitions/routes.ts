import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actionDefinitionInputSchema, actionDefinitionSchema, actionTestInputSchema, actionTestResultSchema, deleteMessageSchema } from '@cfs/contracts/automation';
import { guid } from '@cfs/contracts/fields';
import { ruleActionDefinitionSchema } from '@cfs/contracts/rule-options';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { createActionDefinition, deleteActionDefinition, findActionDefinition, testActionDefinition, updateActionDefinition } from './commands.js';
import { findActionDefinitionsForProtocols, findActionDefinitionsForRules } from './queries.js';
import { actionDefinitionsResource } from './resource.js';

const tags = ['Action Definitions'];
const params = z.object({ id: z.uuid() });

/** The action catalogue (spec 002 §2 Action catalogue, §7 Action catalogue and history). */
export const actionDefinitionRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  registerListRoutes(app, db, {
    path: '/v1/actionDefinitions',
    resource: actionDefinitionsResource,
    row: actionDefinitionSchema,
    permission: perm('ActionDefinitions', 'view'),
    base: (user) => scoped(db, user.tenantScope).selectFrom('action_definition').selectAll(),
    exportFileName: 'actiondefinitions.csv',
    tags,
  });

  // The rule editor's action picker: its users hold Rules permissions, the catalogue's its own.
  app.get(
    '/v1/actionDefinitions/GetActionDefinitionsForRules',
    {
      config: { permission: [perm('Rules', 'view'), perm('ActionDefinitions', 'view')] },
      schema: { tags, querystring: z.object({ tenantId: guid() }), response: { 200: z.array(ruleActionDefinitionSchema) } },
    },
    async (request) => findActionDefinitionsForRules(db, principalOf(request).tenantScope, request.query.tenantId),
  );

  // The protocol action drawer's picker: read by protocol editors and the catalogue's viewers.
  app.get(
    '/v1/actionDefinitions/GetActionDefinitionsForProtocols',
    {
      config: { permission: [perm('WorkUnits.Protocols', 'view'), perm('ActionDefinitions', 'view')] },
      schema: { tags, querystring: z.object({ tenantId: guid() }), response: { 200: z.array(ruleActionDefinitionSchema) } },
    },
    async (request) => findActionDefinitionsForProtocols(db, principalOf(request).tenantScope, request.query.tenantId),
  );

  app.get('/v1/actionDefinitions/:id', { config: { permission: perm('ActionDefinitions', 'view') }, schema: { tags, params, response: { 200: actionDefinitionSchema } } }, async (request) =>
    findActionDefinition(db, principalOf(request), request.params.id),
  );

  app.put('/v1/actionDefinitions', { config: { permission: perm('ActionDefinitions', 'create') }, schema: { tags, body: actionDefinitionInputSchema, response: { 200: actionDefinitionSchema } } }, async (request) =>
    createActionDefinition(db, principalOf(request), request.body),
  );

  app.post(
    '/v1/actionDefinitions/:id',
    { config: { permission: perm('ActionDefinitions', 'edit') }, schema: { tags, params, body: actionDefinitionInputSchema, response: { 200: actionDefinitionSchema } } },
    async (request) => updateActionDefinition(db, principalOf(request), request.params.id, request.body),
  );

  app.delete('/v1/actionDefinitions/:id', { config: { permission: perm('ActionDefinitions', 'delete') }, schema: { tags, params, response: { 200: deleteMessageSchema } } }, async (request) =>
    deleteActionDefinition(db, principalOf(request), request.params.id),
  );

  app.post(
    '/v1/actionDefinitions/:id/test',
    { config: { permission: perm('ActionDefinitions', 'edit') }, schema: { tags, params, body: actionTestInputSchema, response: { 200: actionTestResultSchema } } },
    async (request) => testActionDefinition(db, principalOf(request), request.params.id, request.body),
  );
};
