import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/pendingdevices': 'PendingDevices:view',
    'GET /v1/pendingdevices/Export': 'PendingDevices:view',
    'POST /v1/pendingdevices/batchpromote': 'PendingDevices:edit',
    'DELETE /v1/pendingdevices/batchdelete': 'PendingDevices:delete',
  },
  bodies: {
    'POST /v1/pendingdevices/batchpromote': (o) => ({
      pendingDeviceIds: [o.pendingDeviceId],
      subscriptionId: o.subscriptionId,
    }),
    'DELETE /v1/pendingdevices/batchdelete': (o) => ({ pendingDeviceIds: [o.disposablePendingDeviceId] }),
  },
};
