import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { defineArea } from '../../http/area.js';
import { createWorkUnitAction } from './rule-action.js';
import { workUnitRoutes } from './routes.js';

export const workUnitsArea = defineArea({
  name: 'workunits',
  routes: workUnitRoutes,
  audited: { workUnit: 'WorkUnits' },
  builtInActions: { [BUILT_IN_ACTIONS.createWorkUnit.id]: createWorkUnitAction },
});
