import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    // Any signed-in caller reaches it, but an entity's history needs the view permission of the
    // entity's area; the matrix reads a tenant's history.
    'GET /v1/auditEvents': 'Tenants:view',
  },
  queries: {
    'GET /v1/auditEvents': (o) => `entityType=tenant&entityId=${o.tenantId}`,
  },
  notTenantBound: ['GET /v1/auditEvents'],
};
