import { defineAccessPolicy } from '../../http/access-policy.js';

export const ruleMatchesAccess = defineAccessPolicy({
  'GET /v1/rulematches': 'Rules:view',
  'GET /v1/rulematches/Export': 'Rules:view',
});
