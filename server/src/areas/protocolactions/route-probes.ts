import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/protocolActions': ['WorkUnits.Protocols:view', 'WorkUnits:view'],
    'GET /v1/protocolActions/Export': ['WorkUnits.Protocols:view', 'WorkUnits:view'],
    'GET /v1/protocolActions/:id': 'WorkUnits.Protocols:view',
    'PUT /v1/protocolActions': 'WorkUnits.Protocols:create',
    'POST /v1/protocolActions/:id': 'WorkUnits.Protocols:edit',
    'DELETE /v1/protocolActions/:id': 'WorkUnits.Protocols:delete',
    'GET /v1/workunits/:id/manualActions': 'WorkUnits:view',
    'POST /v1/workunits/:id/protocolActions/:protocolActionId/trigger': 'WorkUnits:edit',
  },
  bodies: {
    'PUT /v1/protocolActions': (o) => stepBody(o.protocolId),
    'POST /v1/protocolActions/:id': (o) => stepBody(o.protocolId),
    'DELETE /v1/protocolActions/:id': () => undefined,
    'POST /v1/workunits/:id/protocolActions/:protocolActionId/trigger': () => ({ reject: false }),
  },
};

/** A manual step of `protocolId` that sends an email. */
export const stepBody = (protocolId: number) => ({
  protocolId,
  actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
  workUnitEventTypeId: 1,
  runAutomatically: false,
  repeatable: true,
  parameters: { Template: 'Simple' },
});
