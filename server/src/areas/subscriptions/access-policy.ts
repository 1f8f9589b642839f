import { defineAccessPolicy } from '../../http/access-policy.js';

export const subscriptionsAccess = defineAccessPolicy({
  'GET /v1/subscriptions': 'Subscriptions:view',
  'GET /v1/subscriptions/Export': 'Subscriptions:view',
  'PUT /v1/subscriptions': 'Subscriptions:create',
  'POST /v1/subscriptions/:id': 'Subscriptions:edit',
});
