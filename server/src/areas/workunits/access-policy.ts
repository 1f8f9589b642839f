import { defineAccessPolicy } from '../../http/access-policy.js';

export const workUnitsAccess = defineAccessPolicy({
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
});
