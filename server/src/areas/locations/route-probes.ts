import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/locations': 'Locations:view',
    'GET /v1/locations/Export': 'Locations:view',
    'GET /v1/locations/:id': 'Locations:view',
    'PUT /v1/locations': 'Locations:create',
    'POST /v1/locations/:id': 'Locations:edit',
    'GET /api/generallookup/locations': 'signed-in',
  },
  objects: async ({ db }, { tenantId }) => {
    const location = await db
      .insertInto('location')
      .values({ tenant_id: tenantId, name: `walk ${stamp()}` })
      .returning('location_id')
      .executeTakeFirstOrThrow();
    return { locationId: location.location_id };
  },
  param: (url, _name, o) => (url.startsWith('/v1/locations/') ? o.own.locationId : undefined),
  bodies: {
    'PUT /v1/locations': (o) => ({ tenantId: o.tenantId, name: `Walk ${stamp()}` }),
    'POST /v1/locations/:id': (o) => ({ tenantId: o.tenantId, name: `Walked ${stamp()}` }),
  },
};
