import { defineArea } from '../../http/area.js';
import { timelineAccess } from './access-policy.js';
import { timelineRoutes } from './routes.js';

export const timelineArea = defineArea({
  name: 'timeline',
  routes: timelineRoutes,
  access: timelineAccess,
});
