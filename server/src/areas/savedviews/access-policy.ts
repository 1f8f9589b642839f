import { defineAccessPolicy } from '../../http/access-policy.js';

export const savedViewsAccess = defineAccessPolicy({
  'GET /v1/savedviews/workunits': 'WorkUnits:view',
  'PUT /v1/savedviews/workunits': 'WorkUnits:view',
  'POST /v1/savedviews/workunits/:id': 'WorkUnits:view',
  'DELETE /v1/savedviews/workunits/:id': 'WorkUnits:view',
});
