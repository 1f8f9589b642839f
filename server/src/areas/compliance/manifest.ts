import { defineArea } from '../../http/area.js';
import { complianceAccess } from './access-policy.js';
import { seedShippedControlSets } from './control-sets.js';
import { poamTask } from './poam.js';
import { complianceRoutes } from './routes.js';

export const complianceArea = defineArea({
  name: 'compliance',
  routes: complianceRoutes,
  access: complianceAccess,
  audited: { controlStatus: 'Compliance', controlSet: 'Compliance' },
  tasks: [poamTask],
  installationSeed: (trx) => seedShippedControlSets(trx),
});
