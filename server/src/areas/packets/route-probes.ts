import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/packets': 'Packets:view',
    'GET /v1/packets/Export': 'Packets:view',
    'POST /v1/packets': { machine: ['device', 'token'] },
    'GET /v1/packets/:entityId/history': 'Packets:view',
    'GET /v1/packets/:entityId/series': 'Packets:view',
    'GET /v1/packets/:entityId/logs': 'Packets:view',
  },
  bodies: {
    'POST /v1/packets': (o) => ({
      entityId: o.agentDeviceId,
      timestamp: new Date().toISOString(),
      message: { Value: 1 },
    }),
  },
  queries: {
    'GET /v1/packets/:entityId/series': () =>
      `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
  },
};
