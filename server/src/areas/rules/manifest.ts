import { defineArea } from '../../http/area.js';
import { ruleRoutes } from './routes.js';

export const rulesArea = defineArea({
  name: 'rules',
  routes: ruleRoutes,
  audited: { rule: 'Rules' },
});
