import { PROBE_SECRETS, stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/tenants': 'Tenants:view',
    'GET /v1/tenants/Export': 'Tenants:view',
    'GET /v1/tenants/:id': ['Tenants:view', 'WorkUnits:view'],
    'PUT /v1/tenants': 'Tenants:create',
    'POST /v1/tenants/:id': 'Tenants:edit',
    'POST /v1/tenants/:id/toggledisabled': 'Tenants:edit',
    'POST /v1/tenants/toggledisabled/:id': 'Tenants:edit',
    'GET /v1/tenants/:id/assignmentGroups': ['Tenants:view', 'WorkUnits:view'],
    'GET /v1/tenants/:id/intakewizardschema': 'WorkUnits:create',
    'GET /v1/tenants/:id/secrets': 'Tenants:view',
    'PUT /v1/tenants/:id/secrets': 'Tenants:edit',
    'POST /v1/tenants/:id/secrets/:secretId': 'Tenants:edit',
    'GET /v1/tenants/:id/secrets/:secretId/versions/latest': 'Tenants:edit',
    'DELETE /v1/tenants/:id/secrets/:secretId': 'Tenants:edit',
  },
  bodies: {
    'PUT /v1/tenants': () => ({ name: `Walk ${stamp()}` }),
    'POST /v1/tenants/:id': () => ({ name: `Walked ${stamp()}` }),
    'POST /v1/tenants/:id/toggledisabled': () => undefined,
    'POST /v1/tenants/toggledisabled/:id': () => undefined,
    'PUT /v1/tenants/:id/secrets': () => ({ name: `walk.${stamp()}`, value: PROBE_SECRETS.tenantSecret }),
    'POST /v1/tenants/:id/secrets/:secretId': () => ({ value: PROBE_SECRETS.tenantSecret }),
    'DELETE /v1/tenants/:id/secrets/:secretId': () => undefined,
  },
  notTenantBound: ['PUT /v1/tenants'],
};
