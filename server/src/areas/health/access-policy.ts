import { defineAccessPolicy } from '../../http/access-policy.js';

export const healthAccess = defineAccessPolicy({
  'GET /healthz': 'public',
  'GET /readyz': 'public',
  // No person's or machine's credential: the route itself wants METRICS_TOKEN (404 without one set).
  'GET /metrics': 'public',
});
