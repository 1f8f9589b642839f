import { defineArea } from '../../http/area.js';
import { protocolsAccess } from './access-policy.js';
import { PROTOCOL_ENGINE_TASKS } from '../../engines/protocols/tasks.js';
import { seedDemoProtocols } from './demo.js';
import { protocolRoutes } from './routes.js';

export const protocolsArea = defineArea({
  name: 'protocols',
  routes: protocolRoutes,
  access: protocolsAccess,
  audited: { protocol: 'WorkUnits.Protocols' },
  tasks: PROTOCOL_ENGINE_TASKS,
  demoSeed: seedDemoProtocols,
});
