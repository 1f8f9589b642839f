import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/software': 'Devices:view',
    'GET /v1/software/Export': 'Devices:view',
  },
};
