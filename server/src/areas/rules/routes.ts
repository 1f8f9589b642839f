import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '@cfs/contracts/fields';
import { RULE_TYPE_IDS, type RuleTypeId } from '@cfs/contracts/monitoring';
import {
  LEFT_OPERAND_TYPES,
  conditionInputOptionSchema,
  leftOperandOptionSchema,
  ruleForActionSchema,
} from '@cfs/contracts/rule-options';
import {
  RULE_MESSAGES,
  ruleInputSchema,
  ruleSchema,
  ruleTestRequestSchema,
  ruleTestResultSchema,
} from '@cfs/contracts/rules';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { testRule } from '../../engines/rules/test-run.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { copyRule, createRule, deleteRule, findRule, toggleRule, updateRule } from './commands.js';
import { findConditionInputOptions, findLeftOperands, findRulesForAction } from './queries.js';
import { ruleEntity } from './resource.js';

const tags = ['Rules'];
const ruleParams = z.object({ ruleId: guid() });
const messageSchema = z.object({ message: z.string() });
const ruleType = z.coerce
  .number({ error: RULE_MESSAGES.ruleTypeRequired })
  .refine((value): value is RuleTypeId => (RULE_TYPE_IDS as number[]).includes(value), RULE_MESSAGES.ruleTypeRequired);

/** Rules (spec 002 §2 Rules, §4, §5 Rule, §7 Rules) and the rule editor's lookups (spec 000 §7). */
export const ruleRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/rules',
      title: 'rules',
      resource: ruleEntity.resource,
      row: ruleEntity.contract,
      permission: 'Rules:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('rule').selectAll(),
      exportFileName: 'rules.csv',
      tags,
    });

    // Read by the action catalogue's delete too (spec 002 §4 "Action deletion"): either area's viewers.
    app.get(
      '/v1/rules/GetRulesForAction',
      {
        config: { permission: ['Rules:view', 'ActionDefinitions:view'] },
        schema: {
          tags,
          operationId: 'listRulesForAction',
          summary: 'List the rules that run an action',
          description: 'Also answered as the spec spells it: GetRulesForAction(actionDefinitionId={id}).',
          querystring: z.object({ actionDefinitionId: guid() }),
          response: { 200: z.array(ruleForActionSchema) },
        },
      },
      async (request) => findRulesForAction(db, principalOf(request).tenantScope, request.query.actionDefinitionId),
    );

    registerItemRoutes(app, {
      path: '/v1/rules',
      name: { operation: 'Rule', words: 'a rule' },
      area: 'Rules',
      tags,
      params: ruleParams,
      key: 'ruleId',
      item: ruleSchema,
      input: ruleInputSchema,
      get: (user, { ruleId }) => findRule(db, user, ruleId),
      create: (user, input) => createRule(db, user, input),
      update: (user, { ruleId }, input) => updateRule(db, user, ruleId, input),
      delete: { response: messageSchema, run: (user, { ruleId }) => deleteRule(db, user, ruleId) },
      own: { delete: { description: 'Its rule matches go with it.' } },
    });

    // The editor's Test: writes nothing, so it asks what reading rules asks; the rule's tenant must be the caller's.
    app.post(
      '/v1/rules/test',
      {
        config: { permission: 'Rules:view' },
        schema: {
          tags,
          operationId: 'testRule',
          summary: 'Test an unsaved rule against stored data',
          description:
            'Replays the rule over the last hour, day or 7 days of stored data, creating no match and running no action.',
          body: ruleTestRequestSchema,
          response: { 200: ruleTestResultSchema },
        },
      },
      async (request) => testRule(db, principalOf(request).tenantScope, request.body.rule, request.body.window),
    );

    // Enabled is toggled with a dedicated call (spec 002 §4). The spec spells it
    // toggledisabled/{ruleId}, which the document leaves out: beside {ruleId}/copy it makes an
    // ambiguous pair of paths. Both spellings stay answered.
    const toggle = {
      config: { permission: 'Rules:edit' },
      schema: { tags, params: ruleParams, response: { 200: ruleSchema } },
    } as const;
    app.post(
      '/v1/rules/:ruleId/toggledisabled',
      {
        ...toggle,
        schema: {
          ...toggle.schema,
          operationId: 'toggleRuleDisabled',
          summary: 'Enable or disable a rule',
          description: "Also answered at the spec's spelling, POST /v1/rules/toggledisabled/{ruleId}.",
        },
      },
      async (request) => toggleRule(db, principalOf(request), request.params.ruleId),
    );
    app.post(
      '/v1/rules/toggledisabled/:ruleId',
      { ...toggle, schema: { ...toggle.schema, hide: true } },
      async (request) => toggleRule(db, principalOf(request), request.params.ruleId),
    );

    app.post(
      '/v1/rules/:ruleId/copy',
      {
        config: { permission: 'Rules:create' },
        schema: {
          tags,
          operationId: 'copyRule',
          summary: 'Copy a rule',
          description: 'The copy is named "Copy of {name}" and created disabled.',
          params: ruleParams,
          response: { 200: ruleSchema },
        },
      },
      async (request) => copyRule(db, principalOf(request), request.params.ruleId),
    );

    app.get(
      '/api/generalLookup/ruleleftoperands',
      {
        config: { permission: 'Rules:view' },
        schema: {
          tags: ['Lookups'],
          operationId: 'lookupRuleLeftOperands',
          summary: "Look up the operands a rule type's conditions can read",
          querystring: z.object({ ruleType, tenantId: guid().optional() }),
          response: { 200: z.array(leftOperandOptionSchema) },
        },
      },
      async (request) =>
        findLeftOperands(db, principalOf(request).tenantScope, request.query.ruleType, request.query.tenantId),
    );

    app.get(
      '/api/:tenantId/rulelookup/conditionInputOptions/:leftOperandType',
      {
        config: { permission: 'Rules:view' },
        schema: {
          tags: ['Lookups'],
          operationId: 'lookupConditionInputOptions',
          summary: 'Look up the values a rule condition can compare with',
          params: z.object({ tenantId: guid(), leftOperandType: z.enum(LEFT_OPERAND_TYPES as [string, ...string[]]) }),
          querystring: z.object({ tenantId: guid().optional() }),
          response: { 200: z.array(conditionInputOptionSchema) },
        },
      },
      async (request) =>
        findConditionInputOptions(
          db,
          principalOf(request).tenantScope,
          request.params.tenantId,
          request.params.leftOperandType as (typeof LEFT_OPERAND_TYPES)[number],
          request.query.tenantId,
        ),
    );
  };
