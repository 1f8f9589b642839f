import { defineAccessPolicy } from '../../http/access-policy.js';

export const pendingDevicesAccess = defineAccessPolicy({
  'GET /v1/pendingdevices': 'PendingDevices:view',
  'GET /v1/pendingdevices/Export': 'PendingDevices:view',
  'POST /v1/pendingdevices/batchpromote': 'PendingDevices:edit',
  'DELETE /v1/pendingdevices/batchdelete': 'PendingDevices:delete',
});
