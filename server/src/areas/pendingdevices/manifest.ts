import { defineArea } from '../../http/area.js';
import { seedDemoPendingDevices } from './demo.js';
import { pendingDeviceRoutes } from './routes.js';

export const pendingDevicesArea = defineArea({
  name: 'pendingdevices',
  routes: pendingDeviceRoutes,
  audited: { pendingDevice: 'PendingDevices' },
  demoSeed: seedDemoPendingDevices,
});
