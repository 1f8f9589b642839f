import { defineArea } from '../../http/area.js';
import { ruleMatchRoutes } from './routes.js';

export const ruleMatchesArea = defineArea({
  name: 'rulematches',
  routes: ruleMatchRoutes,
});
