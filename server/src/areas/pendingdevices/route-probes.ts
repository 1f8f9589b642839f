import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  /**
   * Who may call each route, as the matrix expects it to answer: written by hand, apart from the
   * routes' own declarations (server/test/expected-access.ts).
   */
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
