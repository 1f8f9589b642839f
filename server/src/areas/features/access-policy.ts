import { defineAccessPolicy } from '../../http/access-policy.js';

export const featuresAccess = defineAccessPolicy({
  'GET /v1/features/:name/enabled': 'public',
});
