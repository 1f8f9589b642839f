import { defineAccessPolicy } from '../../http/access-policy.js';

export const tokensAccess = defineAccessPolicy({
  'GET /v1/tokens': 'Tokens:view',
  'GET /v1/tokens/Export': 'Tokens:view',
  'PUT /v1/tokens': 'Tokens:create',
  'POST /v1/tokens/:id': 'Tokens:edit',
  'PUT /v1/tokens/:id/revoke': 'Tokens:edit',
});
