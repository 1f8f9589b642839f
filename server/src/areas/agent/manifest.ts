import { defineArea } from '../../area.js';
import { agentRoutes } from './routes.js';
import { agentUpdateSilenceTask } from './updates.js';

/** The machine-facing API of device agents, whose writes are recorded under the devices' own entity types, and the tenants' agent updates. */
export const agentArea = defineArea({
  name: 'agent',
  routes: agentRoutes,
  audited: { agentUpdatePolicy: 'Devices' },
  tasks: [agentUpdateSilenceTask],
  apiTags: {
    Agent: "The device agent's own API: enrolment, configuration, logs, operation results and package downloads.",
    'Agent updates':
      "A tenant's choice of the agent version its devices run, its staged rollout and its automatic rollback.",
  },
});
