import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  /**
   * Who may call each route, as the matrix expects it to answer: written by hand, apart from the
   * routes' own declarations (server/test/expected-access.ts).
   */
  access: {
    'POST /v1/emailtemplates/render': 'WorkUnits:view',
    'GET /v1/emailOutbox': 'Settings:view',
    'GET /v1/emailOutbox/Export': 'Settings:view',
  },
  bodies: {
    'POST /v1/emailtemplates/render': (o) => ({ workUnitId: o.workUnitId, protocolActionId: o.emailStepId }),
  },
};
