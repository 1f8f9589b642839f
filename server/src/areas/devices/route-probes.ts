import { EMPTY_GUID } from '@cfs/contracts/fleet';
import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
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
  },
  bodies: {
    'POST /v1/devices/:id': (o) => ({
      name: `Walked ${stamp()}`,
      heartbeatInterval: 60,
      tenantId: o.tenantId,
      subscriptionId: o.subscriptionId,
    }),
    'DELETE /v1/devices/:id': () => undefined,
    'POST /v1/devices/:id/toggleTrace/:minutes': () => undefined,
    'POST /v1/devices/:id/restartagent': () => undefined,
    'POST /v1/deviceInstallations/:deviceId/packages': (o) => [
      { packageId: o.packageId, deviceId: o.deviceId, packageVersionId: EMPTY_GUID },
    ],
  },
  queries: {
    'GET /v1/devices/GetPackageInstallsWithVersions': (o) => `deviceId=${o.deviceId}`,
    'POST /v1/devices/:id/restartagent': (o) => `__tenant__=${o.tenantId}`,
  },
};
