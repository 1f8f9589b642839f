import { defineArea } from '../../http/area.js';
import { homeAccess } from './access-policy.js';
import { homeRoutes } from './routes.js';

export const homeArea = defineArea({
  name: 'home',
  routes: homeRoutes,
  access: homeAccess,
});
