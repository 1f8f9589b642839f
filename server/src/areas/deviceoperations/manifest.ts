import { defineArea } from '../../http/area.js';
import { deviceOperationsAccess } from './access-policy.js';
import { deviceOperationRoutes } from './routes.js';

export const deviceOperationsArea = defineArea({
  name: 'deviceoperations',
  routes: deviceOperationRoutes,
  access: deviceOperationsAccess,
  audited: { deviceOperation: 'Devices' },
});
