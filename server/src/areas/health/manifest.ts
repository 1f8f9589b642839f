import { defineArea } from '../../area.js';
import { healthRoutes } from './routes.js';

export const healthArea = defineArea({
  name: 'health',
  routes: healthRoutes,
});
