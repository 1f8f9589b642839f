import { defineAccessPolicy } from '../../http/access-policy.js';

export const emailAccess = defineAccessPolicy({
  'POST /v1/emailtemplates/render': 'WorkUnits:view',
  'GET /v1/emailOutbox': 'Settings:view',
  'GET /v1/emailOutbox/Export': 'Settings:view',
});
