import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { defineArea } from '../../area.js';
import { createWorkUnitAction } from './rule-action.js';
import { workUnitRoutes } from './routes.js';
import { versionPolicyTask } from './version-policy.js';

export const workUnitsArea = defineArea({
  name: 'workunits',
  routes: workUnitRoutes,
  apiTags: {
    'Work units':
      'Incidents, change requests and intake items: lists, edits, notes, approvals, bulk changes and the Resolution Center.',
    'Access request': 'The public form through which a person asks for an account.',
  },
  audited: { workUnit: 'WorkUnits' },
  builtInActions: { [BUILT_IN_ACTIONS.createWorkUnit.id]: createWorkUnitAction },
  // The tenants' version policy (a tenant setting) opens and resolves work units of devices that lag the Latest.
  tasks: [versionPolicyTask],
});
