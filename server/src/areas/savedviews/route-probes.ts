import { stamp, VIEW_STATE, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/savedviews/workunits': 'WorkUnits:view',
    'PUT /v1/savedviews/workunits': 'WorkUnits:view',
    'POST /v1/savedviews/workunits/:id': 'WorkUnits:view',
    'DELETE /v1/savedviews/workunits/:id': 'WorkUnits:view',
  },
  bodies: {
    'PUT /v1/savedviews/workunits': (o) => ({ tenantId: o.tenantId, name: `Walk ${stamp()}`, state: VIEW_STATE }),
    'POST /v1/savedviews/workunits/:id': () => ({ name: `Walked ${stamp()}`, shared: true, state: VIEW_STATE }),
    'DELETE /v1/savedviews/workunits/:id': () => undefined,
  },
  queries: {
    'GET /v1/savedviews/workunits': (o) => `tenantId=${o.tenantId}`,
  },
};
