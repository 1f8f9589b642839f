import { defineAccessPolicy } from '../../http/access-policy.js';

export const workUnitCommunicationsAccess = defineAccessPolicy({
  'GET /v1/workunitcommunications': 'WorkUnitCommunications:view',
  'GET /v1/workunitcommunications/Export': 'WorkUnitCommunications:view',
  'GET /v1/workunitcommunications/:id': 'WorkUnitCommunications:view',
  'PUT /v1/workunitcommunications': 'WorkUnitCommunications:create',
  'POST /v1/workunitcommunications/:id': 'WorkUnitCommunications:edit',
  'DELETE /v1/workunitcommunications/:id': 'WorkUnitCommunications:delete',
  'POST /v1/workunitcommunications/:id/workUnits': 'WorkUnitCommunications:edit',
  'DELETE /v1/workunitcommunications/:id/workUnits/:workunitId': 'WorkUnitCommunications:edit',
  'GET /v1/workunitcommunicationactivities': 'WorkUnitCommunications:view',
  'GET /v1/workunitcommunicationactivities/Export': 'WorkUnitCommunications:view',
  'PUT /v1/workunitcommunicationactivities': 'WorkUnitCommunications:create',
  'POST /v1/workunitcommunicationactivities/:id': 'WorkUnitCommunications:edit',
  'DELETE /v1/workunitcommunicationactivities/:id': 'WorkUnitCommunications:delete',
  'GET /v1/workunitcommunications/:id/sendInternalNotification': 'WorkUnitCommunications:edit',
  'POST /v1/workunitcommunications/:id/externalReport': 'WorkUnitCommunications:edit',
  'DELETE /v1/workunitcommunications/:id/externalReport': 'WorkUnitCommunications:edit',
  'GET /v1/public/status/:token': 'public',
  'GET /api/v1/public/status/:token': 'public',
});
