import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    // Any signed-in caller reaches it, but a topic needs its area's view permission; the matrix
    // follows the blocks, and asks for the opening event only (maxSeconds=0).
    'GET /v1/live': 'Blocks:view',
  },
  queries: {
    'GET /v1/live': () => 'topics=blocks&maxSeconds=0',
  },
  notTenantBound: ['GET /v1/live'],
};
