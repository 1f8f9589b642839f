import { defineArea } from '../../http/area.js';
import { rulesAccess } from './access-policy.js';
import { seedDemoRules } from './demo.js';
import { ruleRoutes } from './routes.js';

export const rulesArea = defineArea({
  name: 'rules',
  routes: ruleRoutes,
  access: rulesAccess,
  audited: { rule: 'Rules' },
  demoSeed: seedDemoRules,
});
