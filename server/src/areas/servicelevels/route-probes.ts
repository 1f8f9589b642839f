import type { AreaProbes } from '../../../test/probe-kit.js';

const levels = {
  timeZone: 'Europe/Berlin',
  businessHours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '08:00', end: '18:00' })),
  holidays: ['2026-12-25'],
  pauseStates: [4],
  targets: [{ workUnitTypeId: 1, severityId: 2, respondWithin: '02:00:00', resolveWithin: '16:00:00' }],
};

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/servicelevels/installation': 'ServiceLevels:view',
    'PUT /v1/servicelevels/installation': 'ServiceLevels:edit',
    'GET /v1/servicelevels/:tenantId': 'ServiceLevels:view',
    'PUT /v1/servicelevels/:tenantId': 'ServiceLevels:edit',
    'DELETE /v1/servicelevels/:tenantId': 'ServiceLevels:edit',
    'GET /v1/servicelevels/timers/:workUnitId': 'WorkUnits:view',
    'GET /v1/servicelevels/reports/:tenantId': 'ServiceLevels:view',
    'GET /v1/servicelevels/reports/:tenantId/csv': 'ServiceLevels:view',
  },
  bodies: {
    'PUT /v1/servicelevels/installation': () => levels,
    'PUT /v1/servicelevels/:tenantId': () => levels,
    'DELETE /v1/servicelevels/:tenantId': () => undefined,
  },
  queries: {
    'GET /v1/servicelevels/reports/:tenantId': () => 'month=2026-11',
    'GET /v1/servicelevels/reports/:tenantId/csv': () => 'month=2026-11',
  },
  notTenantBound: ['GET /v1/servicelevels/installation', 'PUT /v1/servicelevels/installation'],
  installationOnly: ['PUT /v1/servicelevels/installation'],
};
