import { randomWeek, stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/controlsets': 'Compliance:view',
    'PUT /v1/controlsets': 'Compliance:create',
    'POST /v1/controlsets/Export': 'Compliance:view',
    'POST /v1/controlstatuses': 'Compliance:create',
    'POST /v1/controlstatuses/copyLastWeek': 'Compliance:create',
    'PATCH /v1/controlstatuses/:id': 'Compliance:edit',
    'DELETE /v1/controlstatuses/:id': 'Compliance:delete',
  },
  bodies: {
    'PUT /v1/controlsets': () => ({
      name: `Walk ${stamp()}`,
      controls: [{ id: 'W-1', family: 'Walk', title: 'Walk' }],
    }),
    'POST /v1/controlsets/Export': (o) => ({ startDate: '2026-03-08', tenantId: o.tenantId }),
    'POST /v1/controlstatuses': (o) => ({
      checkDate: randomWeek(),
      status: 'Compliant',
      tenantId: o.tenantId,
      controlId: o.controlId,
    }),
    'POST /v1/controlstatuses/copyLastWeek': (o) => ({
      controlSetId: o.controlSetId,
      tenantId: o.tenantId,
      checkDate: '2026-03-15',
    }),
    'PATCH /v1/controlstatuses/:id': () => [{ op: 'replace', path: '/notes', value: `Walked ${stamp()}` }],
    'DELETE /v1/controlstatuses/:id': () => undefined,
  },
  queries: {
    'GET /v1/controlsets': (o) => `tenantId=${o.tenantId}&checkDate=2026-03-08`,
    'PUT /v1/controlsets': (o) => `tenantId=${o.tenantId}`,
  },
};
