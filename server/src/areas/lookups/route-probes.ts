import type { AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /api/generalLookup/oidcclientconfig': 'public',
    'GET /v1/session': 'signed-in',
    'GET /api/generallookup/tenants': 'signed-in',
    'GET /api/generallookup/subscriptions': 'signed-in',
    'GET /api/generallookup/workunittypes': 'signed-in',
    'GET /api/generalLookup/timezones': 'signed-in',
    'GET /api/generalLookup/version': 'signed-in',
    'GET /api/generalLookup/environment': 'signed-in',
    'GET /api/generalLookup/environmentcolor': 'signed-in',
    'GET /api/generalLookup/ruletypes': 'signed-in',
    'GET /api/generalLookup/operators': 'signed-in',
    'GET /api/generalLookup/occuranceoptions': 'signed-in',
  },
};
