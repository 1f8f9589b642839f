import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { defineArea } from '../../http/area.js';
import { workUnitsAccess } from './access-policy.js';
import { createWorkUnitAction } from './rule-action.js';
import { workUnitRoutes } from './routes.js';
import { versionPolicyTask } from './version-policy.js';

export const workUnitsArea = defineArea({
  name: 'workunits',
  routes: workUnitRoutes,
  access: workUnitsAccess,
  audited: { workUnit: 'WorkUnits' },
  builtInActions: { [BUILT_IN_ACTIONS.createWorkUnit.id]: createWorkUnitAction },
  // The tenants' version policy (a tenant setting) opens and resolves work units of devices that lag the Latest.
  tasks: [versionPolicyTask],
});
