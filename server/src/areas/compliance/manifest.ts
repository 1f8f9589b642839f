import { defineArea } from '../../area.js';
import { seedShippedControlSets } from './control-sets.js';
import { poamTask } from './poam.js';
import { complianceRoutes } from './routes.js';

export const complianceArea = defineArea({
  name: 'compliance',
  routes: complianceRoutes,
  apiTags: { Compliance: "A control set's weekly checklist: control statuses, copies of last week's, exports." },
  audited: { controlStatus: 'Compliance', controlSet: 'Compliance' },
  tasks: [poamTask],
  installationSeed: (trx) => seedShippedControlSets(trx),
});
