import { defineArea } from '../../area.js';
import { timelineRoutes } from './routes.js';

export const timelineArea = defineArea({
  name: 'timeline',
  routes: timelineRoutes,
  apiTags: { Timeline: 'What happened to a work unit or an entity, in order: packets, rule matches and actions.' },
});
