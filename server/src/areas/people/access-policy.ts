import { defineAccessPolicy } from '../../http/access-policy.js';

export const peopleAccess = defineAccessPolicy({
  'GET /api/people': 'People:view',
  'GET /api/peopleandgroups': 'People:view',
  'GET /api/generallookup/approval': 'signed-in',
});
