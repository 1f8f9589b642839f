import { defineAccessPolicy } from '../../http/access-policy.js';

export const devicesAccess = defineAccessPolicy({
  'GET /v1/devices': 'Devices:view',
  'GET /v1/devices/Export': 'Devices:view',
  'GET /v1/devices/GetPackageInstallsWithVersions': 'Devices:view',
  'GET /v1/devices/:id': 'Devices:view',
  'POST /v1/devices/:id': 'Devices:edit',
  'DELETE /v1/devices/:id': 'Devices:delete',
  'GET /v1/devices/:id/logs': 'Devices:view',
  'POST /v1/devices/:id/toggleTrace/:minutes': 'Devices:edit',
  'POST /v1/devices/:id/restartagent': 'Devices:edit',
  'POST /v1/deviceInstallations/:deviceId/packages': 'Devices:edit',
  'GET /api/:tenantId/settings': 'signed-in',
});
