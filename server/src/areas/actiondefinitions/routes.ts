import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  actionDefinitionInputSchema,
  actionDefinitionSchema,
  actionTestInputSchema,
  actionTestResultSchema,
  deleteMessageSchema,
} from '@cfs/contracts/action-definitions';
import { guid } from '@cfs/contracts/fields';
import { ruleActionDefinitionSchema } from '@cfs/contracts/rule-options';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import {
  createActionDefinition,
  deleteActionDefinition,
  findActionDefinition,
  testActionDefinition,
  updateActionDefinition,
} from './commands.js';
import { findActionDefinitionsForProtocols, findActionDefinitionsForRules } from './queries.js';
import { actionDefinitionEntity } from './resource.js';

const tags = ['Action definitions'];
const params = z.object({ id: z.uuid() });

/** The action catalogue (spec 002 §2 Action catalogue, §7 Action catalogue and history). */
export const actionDefinitionRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/actionDefinitions',
      title: 'action definitions',
      resource: actionDefinitionEntity.resource,
      row: actionDefinitionEntity.contract,
      permission: 'ActionDefinitions:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('action_definition').selectAll(),
      exportFileName: 'actiondefinitions.csv',
      tags,
    });

    // The rule editor's action picker: its users hold Rules permissions, the catalogue's its own.
    app.get(
      '/v1/actionDefinitions/GetActionDefinitionsForRules',
      {
        config: { permission: ['Rules:view', 'ActionDefinitions:view'] },
        schema: {
          tags,
          operationId: 'listActionDefinitionsForRules',
          summary: "List the actions a tenant's rules can run",
          description: 'Also answered as the spec spells it: GetActionDefinitionsForRules(tenantId={id}).',
          querystring: z.object({ tenantId: guid() }),
          response: { 200: z.array(ruleActionDefinitionSchema) },
        },
      },
      async (request) => findActionDefinitionsForRules(db, principalOf(request).tenantScope, request.query.tenantId),
    );

    // The protocol action drawer's picker: read by protocol editors and the catalogue's viewers.
    app.get(
      '/v1/actionDefinitions/GetActionDefinitionsForProtocols',
      {
        config: { permission: ['WorkUnits.Protocols:view', 'ActionDefinitions:view'] },
        schema: {
          tags,
          operationId: 'listActionDefinitionsForProtocols',
          summary: "List the actions a tenant's protocol steps can run",
          description: 'Also answered as the spec spells it: GetActionDefinitionsForProtocols(tenantId={id}).',
          querystring: z.object({ tenantId: guid() }),
          response: { 200: z.array(ruleActionDefinitionSchema) },
        },
      },
      async (request) =>
        findActionDefinitionsForProtocols(db, principalOf(request).tenantScope, request.query.tenantId),
    );

    registerItemRoutes(app, {
      path: '/v1/actionDefinitions',
      name: { operation: 'ActionDefinition', words: 'an action definition' },
      area: 'ActionDefinitions',
      tags,
      params,
      item: actionDefinitionSchema,
      input: actionDefinitionInputSchema,
      get: (user, { id }) => findActionDefinition(db, user, id),
      create: (user, input) => createActionDefinition(db, user, input),
      update: (user, { id }, input) => updateActionDefinition(db, user, id, input),
      delete: { response: deleteMessageSchema, run: (user, { id }) => deleteActionDefinition(db, user, id) },
      own: {
        delete: {
          description:
            "Its protocol steps go with it, and it is taken out of every rule's match and expiration actions.",
        },
      },
    });

    app.post(
      '/v1/actionDefinitions/:id/test',
      {
        config: { permission: 'ActionDefinitions:edit' },
        schema: {
          tags,
          operationId: 'testActionDefinition',
          summary: 'Run an action definition as a test',
          description:
            "The run is queued; the answer is the test's message id, the messageId of the run's action history entry. " +
            'The body in either wire form. Ours: `{ "tenantId"?: GUID, "parameters": { "Who": "x" }, ' +
            '"extra": [{ "param": "P", "value": "v" }] }`. The spec\'s: the input values themselves, ' +
            '`{ "Who": "x" }` (a `tenantId` beside them is the tenant). A body with `parameters` holding an ' +
            "object or `extra` holding a list is read as ours, any other as the spec's. Every name in the values " +
            "must be one of the action's input parameters (an unknown one is a 400 naming it); other " +
            'placeholders go in `extra`.',
          params,
          body: actionTestInputSchema,
          response: { 200: actionTestResultSchema },
        },
      },
      async (request) => testActionDefinition(db, principalOf(request), request.params.id, request.body),
    );
  };
