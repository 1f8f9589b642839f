import { defineAccessPolicy } from '../../http/access-policy.js';

export const blocksAccess = defineAccessPolicy({
  'GET /v1/blocks': 'Blocks:view',
  'GET /v1/blocks/Export': 'Blocks:view',
  'GET /v1/blocks/:id': 'Blocks:view',
  'PUT /v1/blocks': 'Blocks:create',
  'POST /v1/blocks/:id': 'Blocks:edit',
  'DELETE /v1/blocks/:id': 'Blocks:delete',
  'GET /v1/blocks/:id/history': 'Blocks:view',
  'GET /v1/blocks/:id/series': 'Blocks:view',
  'GET /v1/blocks/:id/logs': 'Blocks:view',
});
