import { defineArea } from '../../area.js';
import { agentRoutes } from './routes.js';

/** The machine-facing API of device agents; their writes are recorded under the devices' own entity types. */
export const agentArea = defineArea({
  name: 'agent',
  routes: agentRoutes,
  apiTags: {
    Agent: "The device agent's own API: enrolment, configuration, logs, operation results and package downloads.",
  },
});
