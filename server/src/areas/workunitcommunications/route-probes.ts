import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/workunitcommunications': 'WorkUnitCommunications:view',
    'GET /v1/workunitcommunications/Export': 'WorkUnitCommunications:view',
    'GET /v1/workunitcommunications/:id': 'WorkUnitCommunications:view',
    'PUT /v1/workunitcommunications': 'WorkUnitCommunications:create',
    'POST /v1/workunitcommunications/:id': 'WorkUnitCommunications:edit',
    'DELETE /v1/workunitcommunications/:id': 'WorkUnitCommunications:delete',
    'POST /v1/workunitcommunications/:id/workUnits': 'WorkUnitCommunications:edit',
    'DELETE /v1/workunitcommunications/:id/workUnits/:workunitId': 'WorkUnitCommunications:edit',
    'GET /v1/workunitcommunicationactivities': 'WorkUnitCommunications:view',
    'GET /v1/workunitcommunicationactivities/Export': 'WorkUnitCommunications:view',
    'PUT /v1/workunitcommunicationactivities': 'WorkUnitCommunications:create',
    'POST /v1/workunitcommunicationactivities/:id': 'WorkUnitCommunications:edit',
    'DELETE /v1/workunitcommunicationactivities/:id': 'WorkUnitCommunications:delete',
    'GET /v1/workunitcommunications/:id/sendInternalNotification': 'WorkUnitCommunications:edit',
    'POST /v1/workunitcommunications/:id/externalReport': 'WorkUnitCommunications:edit',
    'DELETE /v1/workunitcommunications/:id/externalReport': 'WorkUnitCommunications:edit',
    'GET /v1/public/status/:token': 'public',
    'GET /api/v1/public/status/:token': 'public',
  },
  bodies: {
    'PUT /v1/workunitcommunications': (o) => communicationBody(o.tenantId),
    'POST /v1/workunitcommunications/:id': (o) => communicationBody(o.tenantId),
    'DELETE /v1/workunitcommunications/:id': () => undefined,
    'POST /v1/workunitcommunications/:id/workUnits': (o) => ({ workunitIds: [o.workUnitId] }),
    'DELETE /v1/workunitcommunications/:id/workUnits/:workunitId': () => undefined,
    'PUT /v1/workunitcommunicationactivities': (o) => activityBody(o.communicationId),
    'POST /v1/workunitcommunicationactivities/:id': (o) => activityBody(o.communicationId),
    'DELETE /v1/workunitcommunicationactivities/:id': () => undefined,
    'POST /v1/workunitcommunications/:id/externalReport': () => undefined,
    'DELETE /v1/workunitcommunications/:id/externalReport': () => undefined,
  },
};

const communicationBody = (tenantId: string) => ({ title: `Walked ${stamp()}`, tenantId, serviceManager: 'Walker' });
const activityBody = (communicationId: string) => ({
  workUnitCommunicationId: communicationId,
  activityType: 'TaskActivity',
  details: `Walked ${stamp()}`,
});
