import { defineAccessPolicy } from '../../http/access-policy.js';

export const actionHistoriesAccess = defineAccessPolicy({
  'GET /v1/actionHistories': 'ActionDefinitions:view',
  'GET /v1/actionHistories/Export': 'ActionDefinitions:view',
  'GET /v1/actionHistories/:id': 'ActionDefinitions:view',
});
