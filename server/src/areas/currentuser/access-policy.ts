import { defineAccessPolicy } from '../../http/access-policy.js';

export const currentUserAccess = defineAccessPolicy({
  'GET /v1/currentUser': 'signed-in',
  'GET /v1/permissions': 'signed-in',
  'GET /api/auth/currentUserPhoto': 'signed-in',
  'POST /v1/tenantSubscriptionContext/:tenant': 'signed-in',
});
