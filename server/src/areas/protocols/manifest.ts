import { defineArea } from '../../http/area.js';
import { PROTOCOL_ENGINE_TASKS } from '../../engines/protocols/tasks.js';
import { protocolRoutes } from './routes.js';

export const protocolsArea = defineArea({
  name: 'protocols',
  routes: protocolRoutes,
  audited: { protocol: 'WorkUnits.Protocols' },
  // The action runner's task runs the manual steps Pending Actions enqueues (listed by whichever area needs it; the worker runs each task once).
  tasks: PROTOCOL_ENGINE_TASKS,
});
