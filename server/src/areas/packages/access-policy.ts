import { defineAccessPolicy } from '../../http/access-policy.js';

export const packagesAccess = defineAccessPolicy({
  'GET /v1/packages': 'Packages:view',
  'GET /v1/packages/Export': 'Packages:view',
  'GET /v1/packages/:id': 'Packages:view',
  'PUT /v1/packages': 'Packages:create',
  'POST /v1/packages/:id': 'Packages:edit',
  'DELETE /v1/packages/:id': 'Packages:delete',
  'PUT /v1/packages/:id/operations': 'Packages:edit',
  'POST /v1/packages/:id/operations/:operationId': 'Packages:edit',
  'DELETE /v1/packages/:id/operations/:operationId': 'Packages:edit',
  'POST /v1/packages/upload': 'Packages:create',
  'DELETE /v1/packages/:id/versions/:versionId': 'Packages:delete',
});
