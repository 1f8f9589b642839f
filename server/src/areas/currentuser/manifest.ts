import { defineArea } from '../../area.js';
import { currentUserRoutes } from './routes.js';

export const currentUserArea = defineArea({
  name: 'currentuser',
  routes: currentUserRoutes,
  apiTags: {
    'Current user':
      'The signed-in caller: their profile, permissions and photo, and the tenant and subscription they work in.',
  },
});
