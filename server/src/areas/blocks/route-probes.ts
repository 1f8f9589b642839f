import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/blocks': 'Blocks:view',
    'GET /v1/blocks/Export': 'Blocks:view',
    'GET /v1/blocks/:id': 'Blocks:view',
    'PUT /v1/blocks': 'Blocks:create',
    'POST /v1/blocks/:id': 'Blocks:edit',
    'DELETE /v1/blocks/:id': 'Blocks:delete',
    'GET /v1/blocks/:id/history': 'Blocks:view',
    'GET /v1/blocks/:id/series': 'Blocks:view',
    'GET /v1/blocks/:id/logs': 'Blocks:view',
  },
  bodies: {
    'PUT /v1/blocks': (o) => ({
      blockId: crypto.randomUUID(),
      subscriptionId: o.subscriptionId,
      name: `Walk ${stamp()}`,
      blockTypeId: 1,
    }),
    'POST /v1/blocks/:id': () => ({ name: `Walked ${stamp()}` }),
    'DELETE /v1/blocks/:id': () => undefined,
  },
  queries: {
    'GET /v1/blocks/:id/series': () => `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
  },
};
