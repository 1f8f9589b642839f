import { defineArea } from '../../http/area.js';
import { seedDemoRules } from './demo.js';
import { ruleRoutes } from './routes.js';

export const rulesArea = defineArea({
  name: 'rules',
  routes: ruleRoutes,
  audited: { rule: 'Rules' },
  demoSeed: seedDemoRules,
});
