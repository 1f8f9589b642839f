import { defineArea } from '../../http/area.js';
import { seedDemoCommunications } from './demo.js';
import { communicationRoutes } from './routes.js';

export const workUnitCommunicationsArea = defineArea({
  name: 'workunitcommunications',
  routes: communicationRoutes,
  audited: { workUnitCommunication: 'WorkUnitCommunications' },
  demoSeed: (trx) => seedDemoCommunications(trx),
});
