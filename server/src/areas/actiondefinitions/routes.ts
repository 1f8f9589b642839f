import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { ruleActionDefinitionSchema } from '@cfs/contracts/rule-options';
import type { AppDeps } from '../../app-deps.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { findActionDefinitionsForProtocols, findActionDefinitionsForRules } from './queries.js';

const tags = ['Action Definitions'];

/** The action catalogue (spec 002 §7 Action catalogue and history): so far what the rule editor offers. */
export const actionDefinitionRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  // The rule editor's action picker: its users hold Rules permissions, the catalogue's its own.
  app.get(
    '/v1/actionDefinitions/GetActionDefinitionsForRules',
    {
      config: { permission: [perm('Rules', 'view'), perm('ActionDefinitions', 'view')] },
      schema: { tags, querystring: z.object({ tenantId: guid() }), response: { 200: z.array(ruleActionDefinitionSchema) } },
    },
    async (request) => findActionDefinitionsForRules(db, principalOf(request).tenantScope, request.query.tenantId),
  );

  // The protocol action drawer's action picker.
  app.get(
    '/v1/actionDefinitions/GetActionDefinitionsForProtocols',
    {
      config: { permission: [perm('WorkUnits.Protocols', 'view'), perm('ActionDefinitions', 'view')] },
      schema: { tags, querystring: z.object({ tenantId: guid() }), response: { 200: z.object({ value: z.array(ruleActionDefinitionSchema) }) } },
    },
    async (request) => findActionDefinitionsForProtocols(db, principalOf(request).tenantScope, request.query.tenantId),
  );
};
