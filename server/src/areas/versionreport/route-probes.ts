import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/compliancereport': 'Devices:view',
    'GET /v1/compliancereport/Export': 'Devices:view',
    'POST /v1/compliancereport/Export': 'Devices:view',
  },
  bodies: {
    'POST /v1/compliancereport/Export': () => ({}),
  },
  notTenantBound: ['POST /v1/compliancereport/Export'],
};
