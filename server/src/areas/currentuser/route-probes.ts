import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/currentUser': 'signed-in',
    'GET /v1/permissions': 'signed-in',
    'GET /api/auth/currentUserPhoto': 'signed-in',
    'POST /v1/tenantSubscriptionContext/:tenant': 'signed-in',
  },
  bodies: {
    'POST /v1/tenantSubscriptionContext/:tenant': (o) => ({ tenant: o.tenantId, subscriptionId: o.subscriptionId }),
  },
};
