import { defineArea } from '../../http/area.js';
import { timelineRoutes } from './routes.js';

export const timelineArea = defineArea({
  name: 'timeline',
  routes: timelineRoutes,
});
