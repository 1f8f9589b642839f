import { defineAccessPolicy } from '../../http/access-policy.js';

export const tenantsAccess = defineAccessPolicy({
  'GET /v1/tenants': 'Tenants:view',
  'GET /v1/tenants/Export': 'Tenants:view',
  'GET /v1/tenants/:id': ['Tenants:view', 'WorkUnits:view'],
  'PUT /v1/tenants': 'Tenants:create',
  'POST /v1/tenants/:id': 'Tenants:edit',
  'POST /v1/tenants/toggledisabled/:id': 'Tenants:edit',
  'GET /v1/tenants/:id/assignmentGroups': ['Tenants:view', 'WorkUnits:view'],
  'GET /v1/tenants/:id/intakewizardschema': 'WorkUnits:create',
  'GET /v1/tenants/:id/secrets': 'Tenants:view',
  'PUT /v1/tenants/:id/secrets': 'Tenants:edit',
  'POST /v1/tenants/:id/secrets/:secretId': 'Tenants:edit',
  'GET /v1/tenants/:id/secrets/:secretId/versions/latest': 'Tenants:edit',
  'DELETE /v1/tenants/:id/secrets/:secretId': 'Tenants:edit',
});
