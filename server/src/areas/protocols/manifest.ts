import { defineArea } from '../../area.js';
import { PROTOCOL_ENGINE_TASKS } from '../../engines/protocols/tasks.js';
import { seedDemoProtocols } from './demo.js';
import { protocolRoutes } from './routes.js';

export const protocolsArea = defineArea({
  name: 'protocols',
  routes: protocolRoutes,
  apiTags: { Protocols: 'Event- and timer-driven sequences of actions on work units.' },
  audited: { protocol: 'WorkUnits.Protocols' },
  tasks: PROTOCOL_ENGINE_TASKS,
  demoSeed: seedDemoProtocols,
});
