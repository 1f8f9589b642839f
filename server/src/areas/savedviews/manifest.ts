import { defineArea } from '../../http/area.js';
import { savedViewRoutes } from './routes.js';

export const savedViewsArea = defineArea({
  name: 'savedviews',
  routes: savedViewRoutes,
});
