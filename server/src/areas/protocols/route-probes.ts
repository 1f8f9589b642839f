import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/protocols': ['WorkUnits.Protocols:view', 'WorkUnits:view'],
    'GET /v1/protocols/Export': ['WorkUnits.Protocols:view', 'WorkUnits:view'],
    'GET /v1/protocols/GetMatchedRules': 'WorkUnits.Protocols:view',
    'GET /v1/protocols/GetProtocolsForAction': ['WorkUnits.Protocols:view', 'ActionDefinitions:view'],
    'GET /v1/protocols/:id': 'WorkUnits.Protocols:view',
    'PUT /v1/protocols': 'WorkUnits.Protocols:create',
    'POST /v1/protocols/:id': 'WorkUnits.Protocols:edit',
    'DELETE /v1/protocols/:id': 'WorkUnits.Protocols:delete',
  },
  bodies: {
    'PUT /v1/protocols': (o) => ({ name: `Walk ${stamp()}`, tenantId: o.tenantId }),
    'POST /v1/protocols/:id': (o) => ({ name: `Walked ${stamp()}`, tenantId: o.tenantId }),
    'DELETE /v1/protocols/:id': () => undefined,
  },
  queries: {
    'GET /v1/protocols/GetMatchedRules': (o) => `id=${o.protocolId}`,
    'GET /v1/protocols/GetProtocolsForAction': () => `actionDefinitionId=${BUILT_IN_ACTIONS.sendEmail.id}`,
  },
  notTenantBound: ['GET /v1/protocols/GetProtocolsForAction'],
};
