import { defineAccessPolicy } from '../../http/access-policy.js';

export const locationsAccess = defineAccessPolicy({
  'GET /v1/locations': 'Locations:view',
  'GET /v1/locations/Export': 'Locations:view',
  'GET /v1/locations/:id': 'Locations:view',
  'PUT /v1/locations': 'Locations:create',
  'POST /v1/locations/:id': 'Locations:edit',
  'GET /api/generallookup/locations': 'signed-in',
});
