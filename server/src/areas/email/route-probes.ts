import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'POST /v1/emailtemplates/render': 'WorkUnits:view',
    'GET /v1/emailOutbox': 'Settings:view',
    'GET /v1/emailOutbox/Export': 'Settings:view',
  },
  bodies: {
    'POST /v1/emailtemplates/render': (o) => ({ workUnitId: o.workUnitId, protocolActionId: o.emailStepId }),
  },
};
