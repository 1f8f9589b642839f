import { type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/tokens': 'Tokens:view',
    'GET /v1/tokens/Export': 'Tokens:view',
    'PUT /v1/tokens': 'Tokens:create',
    'POST /v1/tokens/:id': 'Tokens:edit',
    'PUT /v1/tokens/:id/revoke': 'Tokens:edit',
  },
  bodies: {
    'PUT /v1/tokens': (o) => ({ tenantId: o.tenantId, name: 'Walk token', lifetimeYears: 1 }),
    'POST /v1/tokens/:id': () => ({ name: 'Walked token' }),
    'PUT /v1/tokens/:id/revoke': () => undefined,
  },
};
