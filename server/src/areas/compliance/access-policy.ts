import { defineAccessPolicy } from '../../http/access-policy.js';

export const complianceAccess = defineAccessPolicy({
  'GET /v1/controlsets': 'Compliance:view',
  'PUT /v1/controlsets': 'Compliance:create',
  'POST /v1/controlsets/Export': 'Compliance:view',
  'POST /v1/controlstatuses': 'Compliance:create',
  'POST /v1/controlstatuses/copyLastWeek': 'Compliance:create',
  'PATCH /v1/controlstatuses/:id': 'Compliance:edit',
  'DELETE /v1/controlstatuses/:id': 'Compliance:delete',
});
