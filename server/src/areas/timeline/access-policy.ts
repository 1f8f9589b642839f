import { defineAccessPolicy } from '../../http/access-policy.js';

export const timelineAccess = defineAccessPolicy({
  'GET /v1/workunits/:id/timeline': 'WorkUnits:view',
  'GET /v1/entities/:id/timeline': ['Blocks:view', 'Devices:view'],
});
