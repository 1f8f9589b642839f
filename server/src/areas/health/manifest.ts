import { defineArea } from '../../http/area.js';
import { healthAccess } from './access-policy.js';
import { healthRoutes } from './routes.js';

export const healthArea = defineArea({
  name: 'health',
  routes: healthRoutes,
  access: healthAccess,
});
