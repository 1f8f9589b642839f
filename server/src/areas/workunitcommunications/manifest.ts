import { defineArea } from '../../http/area.js';
import { communicationEmailTask } from './notify.js';
import { overdueSweepTask } from './overdue.js';
import { communicationReportRoutes } from './report-routes.js';

export const workUnitCommunicationsArea = defineArea({
  name: 'workunitcommunications',
  routes: communicationReportRoutes,
  tasks: [communicationEmailTask, overdueSweepTask],
});
