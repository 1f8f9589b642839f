import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { RULE_TYPE_IDS, type RuleTypeId } from '@cfs/contracts/monitoring';
import { LEFT_OPERAND_TYPES, conditionInputOptionSchema, leftOperandOptionSchema, ruleForActionSchema } from '@cfs/contracts/rule-options';
import { RULE_MESSAGES, ruleInputSchema, ruleSchema, ruleTestRequestSchema, ruleTestResultSchema } from '@cfs/contracts/rules';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { testRule } from '../../engines/rules/test-run.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { copyRule, createRule, deleteRule, findRule, toggleRule, updateRule } from './commands.js';
import { findConditionInputOptions, findLeftOperands, findRulesForAction } from './queries.js';
import { rulesResource } from './resource.js';

const tags = ['Rules'];
const ruleParams = z.object({ ruleId: guid() });
const messageSchema = z.object({ message: z.string() });
const ruleType = z.coerce
  .number({ error: RULE_MESSAGES.ruleTypeRequired })
  .refine((value): value is RuleTypeId => (RULE_TYPE_IDS as number[]).includes(value), RULE_MESSAGES.ruleTypeRequired);

/** Rules (spec 002 §2 Rules, §4, §5 Rule, §7 Rules) and the rule editor's lookups (spec 000 §7). */
export const ruleRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db }) => async (app) => {
  registerListRoutes(app, db, {
    path: '/v1/rules',
    resource: rulesResource,
    row: ruleSchema,
    permission: perm('Rules', 'view'),
    base: (user) => scoped(db, user.tenantScope).selectFrom('rule').selectAll(),
    exportFileName: 'rules.csv',
    tags,
  });

  // Read by the action catalogue's delete too (spec 002 §4 "Action deletion"): either area's viewers.
  app.get(
    '/v1/rules/GetRulesForAction',
    {
      config: { permission: [perm('Rules', 'view'), perm('ActionDefinitions', 'view')] },
      schema: { tags, querystring: z.object({ actionDefinitionId: guid() }), response: { 200: z.array(ruleForActionSchema) } },
    },
    async (request) => findRulesForAction(db, principalOf(request).tenantScope, request.query.actionDefinitionId),
  );

  app.get('/v1/rules/:ruleId', { config: { permission: perm('Rules', 'view') }, schema: { tags, params: ruleParams, response: { 200: ruleSchema } } }, async (request) =>
    findRule(db, principalOf(request), request.params.ruleId),
  );

  app.put('/v1/rules', { config: { permission: perm('Rules', 'create') }, schema: { tags, body: ruleInputSchema, response: { 200: ruleSchema } } }, async (request) =>
    createRule(db, principalOf(request), request.body),
  );

  app.post('/v1/rules/:ruleId', { config: { permission: perm('Rules', 'edit') }, schema: { tags, params: ruleParams, body: ruleInputSchema, response: { 200: ruleSchema } } }, async (request) =>
    updateRule(db, principalOf(request), request.params.ruleId, request.body),
  );

  // The editor's Test: writes nothing, so it asks what reading rules asks; the rule's tenant must be the caller's.
  app.post(
    '/v1/rules/test',
    { config: { permission: perm('Rules', 'view') }, schema: { tags, summary: 'Replay an unsaved rule over the last hour, day or 7 days of stored data, creating no match and running no action', body: ruleTestRequestSchema, response: { 200: ruleTestResultSchema } } },
    async (request) => testRule(db, principalOf(request).tenantScope, request.body.rule, request.body.window),
  );

  app.post('/v1/rules/toggledisabled/:ruleId', { config: { permission: perm('Rules', 'edit') }, schema: { tags, params: ruleParams, response: { 200: ruleSchema } } }, async (request) =>
    toggleRule(db, principalOf(request), request.params.ruleId),
  );

  app.post('/v1/rules/:ruleId/copy', { config: { permission: perm('Rules', 'create') }, schema: { tags, params: ruleParams, response: { 200: ruleSchema } } }, async (request) =>
    copyRule(db, principalOf(request), request.params.ruleId),
  );

  app.delete('/v1/rules/:id', { config: { permission: perm('Rules', 'delete') }, schema: { tags, params: z.object({ id: guid() }), response: { 200: messageSchema } } }, async (request) =>
    deleteRule(db, principalOf(request), request.params.id),
  );

  app.get(
    '/api/generalLookup/ruleleftoperands',
    {
      config: { permission: perm('Rules', 'view') },
      schema: { tags: ['Lookups'], querystring: z.object({ ruleType, tenantId: guid().optional() }), response: { 200: z.array(leftOperandOptionSchema) } },
    },
    async (request) => findLeftOperands(db, principalOf(request).tenantScope, request.query.ruleType, request.query.tenantId),
  );

  app.get(
    '/api/:tenantId/rulelookup/conditionInputOptions/:leftOperandType',
    {
      config: { permission: perm('Rules', 'view') },
      schema: {
        tags: ['Lookups'],
        params: z.object({ tenantId: guid(), leftOperandType: z.enum(LEFT_OPERAND_TYPES as [string, ...string[]]) }),
        querystring: z.object({ tenantId: guid().optional() }),
        response: { 200: z.array(conditionInputOptionSchema) },
      },
    },
    async (request) =>
      findConditionInputOptions(db, principalOf(request).tenantScope, request.params.tenantId, request.params.leftOperandType as (typeof LEFT_OPERAND_TYPES)[number], request.query.tenantId),
  );
};
