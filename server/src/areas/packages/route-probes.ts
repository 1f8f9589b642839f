import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
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
  },
  bodies: {
    'PUT /v1/packages': (o) => ({
      tenantId: o.tenantId,
      name: `Walk ${stamp()}`,
      packageTypeId: 1,
      operatingSystemRidsId: [1],
    }),
    'POST /v1/packages/:id': (o) => ({
      tenantId: o.tenantId,
      name: `Walked ${stamp()}`,
      packageTypeId: 1,
      operatingSystemRidsId: [1],
    }),
    'DELETE /v1/packages/:id': () => undefined,
    'PUT /v1/packages/:id/operations': () => ({
      name: `Walk ${stamp()}`,
      frequencyDefinitions: [2],
      defaultInterval: '00:05:00',
      operationType: 6,
      operationResultTypeId: 2,
    }),
    'POST /v1/packages/:id/operations/:operationId': () => ({
      name: `Walked ${stamp()}`,
      frequencyDefinitions: [2],
      defaultInterval: '00:05:00',
      operationType: 6,
      operationResultTypeId: 2,
    }),
    'DELETE /v1/packages/:id/operations/:operationId': () => undefined,
    'DELETE /v1/packages/:id/versions/:versionId': () => undefined,
  },
  multipart: {
    'POST /v1/packages/upload': (o) => ({
      packageId: o.packageId,
      tenantId: o.tenantId,
      label: 'Walk',
      version: `0.0.${Math.floor(Math.random() * 1e6)}`,
    }),
  },
};
