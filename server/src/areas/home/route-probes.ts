import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/home/workunits': 'WorkUnits:view',
    'GET /v1/home/devices': 'Devices:view',
    'GET /v1/home/rulematches': 'Rules:view',
    'GET /v1/home/communications': 'WorkUnitCommunications:view',
    'GET /v1/home/compliance': 'Compliance:view',
  },
  queries: {
    'GET /v1/home/workunits': (o) => `tenantId=${o.tenantId}`,
    'GET /v1/home/devices': (o) => `tenantId=${o.tenantId}`,
    'GET /v1/home/rulematches': (o) => `tenantId=${o.tenantId}`,
    'GET /v1/home/communications': (o) => `tenantId=${o.tenantId}`,
    'GET /v1/home/compliance': (o) => `tenantId=${o.tenantId}&checkDate=2026-03-11`,
  },
};
