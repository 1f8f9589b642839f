import { defineArea } from '../../http/area.js';
import { deviceOperationRoutes } from './routes.js';

export const deviceOperationsArea = defineArea({
  name: 'deviceoperations',
  routes: deviceOperationRoutes,
  audited: { deviceOperation: 'Devices' },
});
