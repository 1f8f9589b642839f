import { defineArea } from '../../http/area.js';
import { workUnitCommunicationsAccess } from './access-policy.js';
import { seedDemoCommunications } from './demo.js';
import { communicationEmailTask } from './notify.js';
import { overdueSweepTask } from './overdue.js';
import { communicationReportRoutes } from './report-routes.js';
import { communicationRoutes } from './routes.js';

export const workUnitCommunicationsArea = defineArea({
  name: 'workunitcommunications',
  routes: (deps) => async (app) => {
    await app.register(communicationRoutes(deps));
    await app.register(communicationReportRoutes(deps));
  },
  access: workUnitCommunicationsAccess,
  audited: { workUnitCommunication: 'WorkUnitCommunications' },
  tasks: [communicationEmailTask, overdueSweepTask],
  demoSeed: (trx) => seedDemoCommunications(trx),
});
