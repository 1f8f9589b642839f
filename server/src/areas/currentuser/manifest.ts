import { defineArea } from '../../http/area.js';
import { currentUserRoutes } from './routes.js';

export const currentUserArea = defineArea({
  name: 'currentuser',
  routes: currentUserRoutes,
});
