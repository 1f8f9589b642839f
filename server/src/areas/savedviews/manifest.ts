import { defineArea } from '../../http/area.js';
import { savedViewsAccess } from './access-policy.js';
import { savedViewRoutes } from './routes.js';

export const savedViewsArea = defineArea({
  name: 'savedviews',
  routes: savedViewRoutes,
  access: savedViewsAccess,
});
