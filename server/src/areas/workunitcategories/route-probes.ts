import { WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { stamp, type AreaProbes } from '../../../test/probe-kit.js';

/** What the authorization matrix sends to this area's routes (server/test/route-probes.ts). */
export const probes: AreaProbes = {
  access: {
    'GET /v1/workunitcategories': 'WorkUnits.Categories:view',
    'GET /v1/workunitcategories/Export': 'WorkUnits.Categories:view',
    'PUT /v1/workunitcategories': 'WorkUnits.Categories:create',
    'POST /v1/workunitcategories/:id': 'WorkUnits.Categories:edit',
    'GET /v1/workunitsubcategories': 'WorkUnits.Subcategories:view',
    'GET /v1/workunitsubcategories/Export': 'WorkUnits.Subcategories:view',
    'PUT /v1/workunitsubcategories': 'WorkUnits.Subcategories:create',
    'POST /v1/workunitsubcategories/:id': 'WorkUnits.Subcategories:edit',
    'GET /v1/workunittypes': 'WorkUnits.Types:view',
    'GET /v1/workunittypes/Export': 'WorkUnits.Types:view',
    'PUT /v1/workunittypes': 'WorkUnits.Types:create',
    'POST /v1/workunittypes/:id': 'WorkUnits.Types:edit',
    'GET /api/generallookup/workunitcatgories': 'signed-in',
    'GET /api/generallookup/workunitsubcatgories': 'signed-in',
  },
  bodies: {
    'PUT /v1/workunitcategories': (o) => ({
      tenantId: o.tenantId,
      name: `Walk ${stamp()}`,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
    }),
    'POST /v1/workunitcategories/:id': (o) => ({
      tenantId: o.tenantId,
      name: `Walked ${stamp()}`,
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
    }),
    'PUT /v1/workunitsubcategories': (o) => ({
      workUnitCategoryId: o.categoryId,
      name: `Walk ${stamp()}`,
      isEnabled: true,
    }),
    'POST /v1/workunitsubcategories/:id': (o) => ({
      workUnitCategoryId: o.categoryId,
      name: `Walked ${stamp()}`,
      isEnabled: true,
    }),
    'PUT /v1/workunittypes': () => ({ name: `Walk type ${stamp()}`, enabled: true }),
    'POST /v1/workunittypes/:id': () => ({ name: `Walked type ${stamp()}`, enabled: true }),
  },
  notTenantBound: ['PUT /v1/workunittypes', 'POST /v1/workunittypes/:id'],
};
