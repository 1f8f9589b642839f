import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /api/people': 'People:view',
    'GET /api/peopleandgroups': 'People:view',
    'GET /api/generallookup/approval': 'signed-in',
    // Who wrote or holds a record is shown on every screen, not only to those who may search people.
    'GET /api/people/names': 'signed-in',
  },
  queries: {
    'GET /api/people': () => 'search=a',
    'GET /api/peopleandgroups': () => 'search=a',
    'GET /api/people/names': () => 'keys=operator',
    'GET /api/generallookup/approval': () => 'approverId=operator%40cfs.example',
  },
  notTenantBound: [
    'GET /api/people',
    'GET /api/peopleandgroups',
    'GET /api/people/names',
    'GET /api/generallookup/approval',
  ],
};
