import { defineAccessPolicy } from '../../http/access-policy.js';

export const rulesAccess = defineAccessPolicy({
  'GET /v1/rules': 'Rules:view',
  'GET /v1/rules/Export': 'Rules:view',
  'GET /v1/rules/GetRulesForAction': ['Rules:view', 'ActionDefinitions:view'],
  'GET /v1/rules/:ruleId': 'Rules:view',
  'PUT /v1/rules': 'Rules:create',
  'POST /v1/rules/:ruleId': 'Rules:edit',
  'POST /v1/rules/test': 'Rules:view',
  'POST /v1/rules/toggledisabled/:ruleId': 'Rules:edit',
  'POST /v1/rules/:ruleId/copy': 'Rules:create',
  'DELETE /v1/rules/:id': 'Rules:delete',
  'GET /api/generalLookup/ruleleftoperands': 'Rules:view',
  'GET /api/:tenantId/rulelookup/conditionInputOptions/:leftOperandType': 'Rules:view',
});
