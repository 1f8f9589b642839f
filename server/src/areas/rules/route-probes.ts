import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/rules': 'Rules:view',
    'GET /v1/rules/Export': 'Rules:view',
    'GET /v1/rules/GetRulesForAction': ['Rules:view', 'ActionDefinitions:view'],
    'GET /v1/rules/:ruleId': 'Rules:view',
    'PUT /v1/rules': 'Rules:create',
    'POST /v1/rules/:ruleId': 'Rules:edit',
    'POST /v1/rules/test': 'Rules:view',
    'POST /v1/rules/:ruleId/toggledisabled': 'Rules:edit',
    'POST /v1/rules/toggledisabled/:ruleId': 'Rules:edit',
    'POST /v1/rules/:ruleId/copy': 'Rules:create',
    'DELETE /v1/rules/:ruleId': 'Rules:delete',
    'GET /api/generalLookup/ruleleftoperands': 'Rules:view',
    'GET /api/:tenantId/rulelookup/conditionInputOptions/:leftOperandType': 'Rules:view',
  },
  bodies: {
    'PUT /v1/rules': (o) => ruleBody(o.tenantId, `Walk ${stamp()}`),
    'POST /v1/rules/:ruleId': (o) => ruleBody(o.tenantId, `Walked ${stamp()}`),
    'POST /v1/rules/test': (o) => ({ rule: ruleBody(o.tenantId, `Walk ${stamp()}`), window: 'hour' }),
    'POST /v1/rules/:ruleId/toggledisabled': () => undefined,
    'POST /v1/rules/toggledisabled/:ruleId': () => undefined,
    'POST /v1/rules/:ruleId/copy': () => undefined,
    'DELETE /v1/rules/:ruleId': () => undefined,
  },
  queries: {
    'GET /v1/rules/GetRulesForAction': () => `actionDefinitionId=${BUILT_IN_ACTIONS.setColor.id}`,
    'GET /api/generalLookup/ruleleftoperands': (o) => `ruleType=1&tenantId=${o.tenantId}`,
  },
  notTenantBound: ['GET /v1/rules/GetRulesForAction'],
};

/** A rule of the tenant that colours an entity red when it walks. */
export const ruleBody = (tenantId: string, name: string) => ({
  name,
  ruleTypeId: 1,
  tenantId,
  matchLifetime: '00:05:00',
  conditions: [{ Type: 0, LeftOperand: 1, Operator: 1, RightOperand: 'walk' }],
  matchActions: [{ ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } }],
});
