import { defineAccessPolicy } from '../../http/access-policy.js';

export const auditAccess = defineAccessPolicy({
  // Any signed-in caller reaches it, but an entity's history needs the view permission of the
  // entity's area; the matrix reads a tenant's history.
  'GET /v1/auditEvents': 'Tenants:view',
});
