import { defineArea } from '../../http/area.js';
import { ruleMatchesAccess } from './access-policy.js';
import { ruleMatchRoutes } from './routes.js';

export const ruleMatchesArea = defineArea({
  name: 'rulematches',
  routes: ruleMatchRoutes,
  access: ruleMatchesAccess,
});
