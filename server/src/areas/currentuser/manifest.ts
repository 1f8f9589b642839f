import { defineArea } from '../../http/area.js';
import { currentUserAccess } from './access-policy.js';
import { currentUserRoutes } from './routes.js';

export const currentUserArea = defineArea({
  name: 'currentuser',
  routes: currentUserRoutes,
  access: currentUserAccess,
});
