import { defineAccessPolicy } from '../../http/access-policy.js';

export const deviceOperationsAccess = defineAccessPolicy({
  'GET /v1/deviceOperations': 'Devices:view',
  'GET /v1/deviceOperations/Export': 'Devices:view',
  'POST /v1/deviceOperations/clone': 'Devices:create',
  'GET /v1/deviceOperations/:id': 'Devices:view',
  'PUT /v1/deviceOperations': 'Devices:create',
  'POST /v1/deviceOperations/:id': 'Devices:edit',
  'DELETE /v1/deviceOperations/:id': 'Devices:delete',
  'POST /v1/deviceOperations/:id/enqueueOnDemand': 'Devices:edit',
  'POST /v1/deviceOperations/:id/dequeueOnDemand': 'Devices:edit',
  'GET /v1/deviceOperations/:id/logs': 'Devices:view',
  'GET /v1/operations/GetAvailableOperationsForDevice': 'Devices:view',
});
