import { defineArea } from '../../area.js';
import { deviceOperationRoutes } from './routes.js';

export const deviceOperationsArea = defineArea({
  name: 'deviceoperations',
  routes: deviceOperationRoutes,
  apiTags: {
    'Device operations': 'Checks and reads an agent runs on its device, on a schedule or on demand, and their logs.',
  },
  audited: { deviceOperation: 'Devices' },
});
