import { defineArea } from '../../area.js';
import { seedDemoCommunications } from './demo.js';
import { communicationEmailTask } from './communication-email.js';
import { overdueSweepTask } from './overdue.js';
import { communicationReportRoutes } from './report-routes.js';
import { communicationRoutes } from './routes.js';

export const workUnitCommunicationsArea = defineArea({
  name: 'workunitcommunications',
  apiTags: {
    'Work unit communications':
      'Status communications about incidents: activities, linked work units, internal and published reports.',
  },
  routes: (deps) => async (app) => {
    await app.register(communicationRoutes(deps));
    await app.register(communicationReportRoutes(deps));
  },
  audited: { workUnitCommunication: 'WorkUnitCommunications' },
  tasks: [communicationEmailTask, overdueSweepTask],
  demoSeed: (trx) => seedDemoCommunications(trx),
});
