import { defineArea } from '../../http/area.js';
import { seedShippedControlSets } from './control-sets.js';
import { poamTask } from './poam.js';
import { complianceRoutes } from './routes.js';

export const complianceArea = defineArea({
  name: 'compliance',
  routes: complianceRoutes,
  audited: { controlStatus: 'Compliance', controlSet: 'Compliance' },
  tasks: [poamTask],
  installationSeed: (trx) => seedShippedControlSets(trx),
});
