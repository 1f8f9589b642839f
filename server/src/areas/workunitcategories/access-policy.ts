import { defineAccessPolicy } from '../../http/access-policy.js';

export const workUnitCategoriesAccess = defineAccessPolicy({
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
});
