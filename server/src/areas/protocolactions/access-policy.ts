import { defineAccessPolicy } from '../../http/access-policy.js';

export const protocolActionsAccess = defineAccessPolicy({
  'GET /v1/protocolActions': ['WorkUnits.Protocols:view', 'WorkUnits:view'],
  'GET /v1/protocolActions/Export': ['WorkUnits.Protocols:view', 'WorkUnits:view'],
  'GET /v1/protocolActions/:id': 'WorkUnits.Protocols:view',
  'PUT /v1/protocolActions': 'WorkUnits.Protocols:create',
  'POST /v1/protocolActions/:id': 'WorkUnits.Protocols:edit',
  'DELETE /v1/protocolActions/:id': 'WorkUnits.Protocols:delete',
  'GET /v1/workunits/:id/manualActions': 'WorkUnits:view',
  'POST /v1/workunits/:id/protocolActions/:protocolActionId/trigger': 'WorkUnits:edit',
});
