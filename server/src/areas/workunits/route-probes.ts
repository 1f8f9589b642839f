import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'POST /api/v1/accessrequest': 'public',
    'GET /v1/workunits': 'WorkUnits:view',
    'GET /v1/workunits/Export': 'WorkUnits:view',
    'GET /v1/workunits/rc': ['WorkUnits:view', 'WorkUnits:view:mine'],
    'GET /v1/workunits/rc/Export': ['WorkUnits:view', 'WorkUnits:view:mine'],
    'GET /v1/workunits/rc/categories': ['WorkUnits:view', 'WorkUnits:view:mine'],
    'GET /v1/workunits/rc/:id/externalNotes': ['WorkUnits:view', 'WorkUnits:view:mine'],
    'PUT /api/v1/rc/workunits': ['WorkUnits:view', 'WorkUnits:view:mine'],
    'GET /v1/workunits/:id': 'WorkUnits:view',
    'PUT /api/v1/workunits': 'WorkUnits:create',
    'PATCH /v1/workunits/:id': 'WorkUnits:edit',
    'POST /v1/workunits/bulk/assign': 'WorkUnits:edit',
    'POST /v1/workunits/bulk/state': 'WorkUnits:edit',
    'GET /v1/workunits/GetWorkUnitHistoryRecords': 'WorkUnits:view',
    'GET /v1/workunits/:id/externalNotes': 'WorkUnits:view',
    'PUT /v1/workunitnotes': 'WorkUnits:edit',
    'POST /v1/workunitnotes/callme/:workUnitId': ['WorkUnits:view', 'WorkUnits:view:mine'],
  },
  bodies: {
    'PUT /api/v1/workunits': (o) => ({
      workUnitId: -1,
      title: 'Walked incident',
      severityId: 2,
      stateId: WORK_UNIT_STATES.New,
      tenantId: o.tenantId,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
    }),
    'PUT /api/v1/rc/workunits': (o) => ({
      tenantId: o.tenantId,
      title: 'Walked request',
      description: 'Walked',
      stakeHolderPhoneNumber: '+1 425 555 0100',
    }),
    'PATCH /v1/workunits/:id': () => [{ op: 'replace', path: '/title', value: `Walked ${stamp()}` }],
    'PUT /v1/workunitnotes': (o) => ({ workUnitId: o.workUnitId, detail: 'Walked note', isExternalNote: false }),
    'POST /v1/workunitnotes/callme/:workUnitId': () => undefined,
    'POST /v1/workunits/bulk/assign': (o) => ({ workUnitIds: [o.workUnitId], assignedTo: 'walker@walk.example' }),
    'POST /v1/workunits/bulk/state': (o) => ({ workUnitIds: [o.workUnitId], stateId: WORK_UNIT_STATES.New }),
    'POST /api/v1/accessrequest': () => ({
      form: {
        requestType: 'PasswordReset',
        firstName: 'Probe',
        lastName: 'Person',
        email: `probe.${stamp()}@probe.example`,
        phone: '+1 425 555 0100',
        targetAccountName: 'probe.person@probe.example',
        acknowledgePolicy: true,
        acknowledgeAccuracy: true,
      },
      startedAt: new Date(Date.now() - 10_000).toISOString(),
    }),
  },
  queries: {
    'GET /v1/workunits/GetWorkUnitHistoryRecords': (o) => `workUnitId=${o.workUnitId}`,
    'GET /v1/workunits/rc/categories': (o) => `tenantId=${o.tenantId}`,
  },
};
