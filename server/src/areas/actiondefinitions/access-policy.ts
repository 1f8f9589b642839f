import { defineAccessPolicy } from '../../http/access-policy.js';

export const actionDefinitionsAccess = defineAccessPolicy({
  'GET /v1/actionDefinitions': 'ActionDefinitions:view',
  'GET /v1/actionDefinitions/Export': 'ActionDefinitions:view',
  'GET /v1/actionDefinitions/GetActionDefinitionsForRules': ['Rules:view', 'ActionDefinitions:view'],
  'GET /v1/actionDefinitions/GetActionDefinitionsForProtocols': ['WorkUnits.Protocols:view', 'ActionDefinitions:view'],
  'GET /v1/actionDefinitions/:id': 'ActionDefinitions:view',
  'PUT /v1/actionDefinitions': 'ActionDefinitions:create',
  'POST /v1/actionDefinitions/:id': 'ActionDefinitions:edit',
  'DELETE /v1/actionDefinitions/:id': 'ActionDefinitions:delete',
  'POST /v1/actionDefinitions/:id/test': 'ActionDefinitions:edit',
});
