import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/subscriptions': 'Subscriptions:view',
    'GET /v1/subscriptions/Export': 'Subscriptions:view',
    'PUT /v1/subscriptions': 'Subscriptions:create',
    'POST /v1/subscriptions/:id': 'Subscriptions:edit',
  },
  bodies: {
    'PUT /v1/subscriptions': (o) => ({ tenantId: o.tenantId, name: `Walk ${stamp()}` }),
    'POST /v1/subscriptions/:id': (o) => ({ tenantId: o.tenantId, name: `Walked ${stamp()}` }),
  },
};
