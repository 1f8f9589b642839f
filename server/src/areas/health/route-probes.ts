import type { AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /healthz': 'public',
    'GET /readyz': 'public',
    // No person's or machine's credential: the route itself wants METRICS_TOKEN (404 without one set).
    'GET /metrics': 'public',
  },
};
