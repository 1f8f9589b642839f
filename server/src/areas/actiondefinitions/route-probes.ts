import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/actionDefinitions': 'ActionDefinitions:view',
    'GET /v1/actionDefinitions/Export': 'ActionDefinitions:view',
    'GET /v1/actionDefinitions/GetActionDefinitionsForRules': ['Rules:view', 'ActionDefinitions:view'],
    'GET /v1/actionDefinitions/GetActionDefinitionsForProtocols': [
      'WorkUnits.Protocols:view',
      'ActionDefinitions:view',
    ],
    'GET /v1/actionDefinitions/:id': 'ActionDefinitions:view',
    'PUT /v1/actionDefinitions': 'ActionDefinitions:create',
    'POST /v1/actionDefinitions/:id': 'ActionDefinitions:edit',
    'DELETE /v1/actionDefinitions/:id': 'ActionDefinitions:delete',
    'POST /v1/actionDefinitions/:id/test': 'ActionDefinitions:edit',
  },
  bodies: {
    'PUT /v1/actionDefinitions': (o) => actionBody(o.tenantId, `Walk ${stamp()}`),
    'POST /v1/actionDefinitions/:id': (o) => actionBody(o.tenantId, `Walked ${stamp()}`),
    'DELETE /v1/actionDefinitions/:id': () => undefined,
    'POST /v1/actionDefinitions/:id/test': () => ({ parameters: { Host: 'walk' } }),
  },
  queries: {
    'GET /v1/actionDefinitions/GetActionDefinitionsForRules': (o) => `tenantId=${o.tenantId}`,
    'GET /v1/actionDefinitions/GetActionDefinitionsForProtocols': (o) => `tenantId=${o.tenantId}`,
  },
};

function actionBody(tenantId: string, name: string) {
  return {
    name,
    actionDefinitionTypeId: 4,
    tenantId,
    endpointUrl: 'https://8.8.8.8/walk/{Host}',
    inputParameters: 'Host',
  };
}
