import { defineArea } from '../../http/area.js';
import { pendingDevicesAccess } from './access-policy.js';
import { seedDemoPendingDevices } from './demo.js';
import { pendingDeviceRoutes } from './routes.js';

export const pendingDevicesArea = defineArea({
  name: 'pendingdevices',
  routes: pendingDeviceRoutes,
  access: pendingDevicesAccess,
  audited: { pendingDevice: 'PendingDevices' },
  demoSeed: seedDemoPendingDevices,
});
