import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/deviceOperations': 'Devices:view',
    'GET /v1/deviceOperations/Export': 'Devices:view',
    'POST /v1/deviceOperations/clone': 'Devices:create',
    'POST /v1/deviceOperations/runScript': 'Devices.Scripts:edit',
    'GET /v1/deviceOperations/:id': 'Devices:view',
    'PUT /v1/deviceOperations': 'Devices:create',
    'POST /v1/deviceOperations/:id': 'Devices:edit',
    'DELETE /v1/deviceOperations/:id': 'Devices:delete',
    'POST /v1/deviceOperations/:id/enqueueOnDemand': 'Devices:edit',
    'POST /v1/deviceOperations/:id/dequeueOnDemand': 'Devices:edit',
    'GET /v1/deviceOperations/:id/logs': 'Devices:view',
    'GET /v1/deviceOperations/:id/scriptruns': 'Devices:view',
    'GET /v1/operations/GetAvailableOperationsForDevice': 'Devices:view',
  },
  bodies: {
    'POST /v1/deviceOperations/runScript': (o) => ({
      operationId: o.agentScriptOperationId,
      deviceIds: [o.agentDeviceId],
      timeoutSeconds: 30,
    }),
    'PUT /v1/deviceOperations': (o) => ({
      deviceId: o.deviceId,
      operationId: o.operationId,
      label: `Walk ${stamp()}`,
      frequencyTypeId: 2,
      interval: '00:05:00',
    }),
    'POST /v1/deviceOperations/:id': (o) => ({
      deviceId: o.deviceId,
      operationId: o.operationId,
      label: `Walked ${stamp()}`,
      frequencyTypeId: 1,
      interval: '00:05:00',
    }),
    'DELETE /v1/deviceOperations/:id': () => undefined,
    'POST /v1/deviceOperations/:id/enqueueOnDemand': () => undefined,
    'POST /v1/deviceOperations/:id/dequeueOnDemand': () => undefined,
    'POST /v1/deviceOperations/clone': (o) => ({
      fromDeviceId: o.deviceId,
      toDeviceId: o.otherDeviceId,
      deviceOperationIdsToClone: o.deviceOperationId,
    }),
  },
  queries: {
    'GET /v1/operations/GetAvailableOperationsForDevice': (o) => `tenantId=${o.tenantId}&operatingSystemId=1`,
  },
};
