import type { AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  /**
   * Who may call each route, as the matrix expects it to answer: written by hand, apart from the
   * routes' own declarations (server/test/expected-access.ts).
   */
  access: {
    'GET /v1/rulematches': 'Rules:view',
    'GET /v1/rulematches/Export': 'Rules:view',
  },
};
