import type { AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/notificationpolicy/:tenantId': 'Rules:view',
    'PUT /v1/notificationpolicy/:tenantId': 'Rules:edit',
  },
  bodies: {
    'PUT /v1/notificationpolicy/:tenantId': () => ({ repeatEvery: '01:00:00' }),
  },
};
