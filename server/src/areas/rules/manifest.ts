import { defineArea } from '../../area.js';
import { seedDemoRules } from './demo.js';
import { ruleRoutes } from './routes.js';

export const rulesArea = defineArea({
  name: 'rules',
  routes: ruleRoutes,
  apiTags: { Rules: 'Conditions over packets whose matches run actions, and a test of a rule over stored data.' },
  audited: { rule: 'Rules' },
  demoSeed: seedDemoRules,
});
