import { defineArea } from '../../http/area.js';
import { agentAccess } from './access-policy.js';
import { agentRoutes } from './routes.js';

/** The machine-facing API of device agents; their writes are recorded under the devices' own entity types. */
export const agentArea = defineArea({
  name: 'agent',
  routes: agentRoutes,
  access: agentAccess,
});
