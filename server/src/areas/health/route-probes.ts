import type { AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  /**
   * Who may call each route, as the matrix expects it to answer: written by hand, apart from the
   * routes' own declarations (server/test/expected-access.ts).
   */
  access: {
    'GET /healthz': 'public',
    'GET /readyz': 'public',
    // No person's or machine's credential: the route itself wants METRICS_TOKEN (404 without one set).
    'GET /metrics': 'public',
  },
};
