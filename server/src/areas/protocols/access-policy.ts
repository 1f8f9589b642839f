import { defineAccessPolicy } from '../../http/access-policy.js';

export const protocolsAccess = defineAccessPolicy({
  'GET /v1/protocols': ['WorkUnits.Protocols:view', 'WorkUnits:view'],
  'GET /v1/protocols/Export': ['WorkUnits.Protocols:view', 'WorkUnits:view'],
  'GET /v1/protocols/GetMatchedRules': 'WorkUnits.Protocols:view',
  'GET /v1/protocols/GetProtocolsForAction': ['WorkUnits.Protocols:view', 'ActionDefinitions:view'],
  'GET /v1/protocols/:id': 'WorkUnits.Protocols:view',
  'PUT /v1/protocols': 'WorkUnits.Protocols:create',
  'POST /v1/protocols/:id': 'WorkUnits.Protocols:edit',
  'DELETE /v1/protocols/:id': 'WorkUnits.Protocols:delete',
});
