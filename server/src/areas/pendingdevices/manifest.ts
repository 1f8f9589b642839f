import { defineArea } from '../../area.js';
import { seedDemoPendingDevices } from './demo.js';
import { pendingDeviceRoutes } from './routes.js';

export const pendingDevicesArea = defineArea({
  name: 'pendingdevices',
  routes: pendingDeviceRoutes,
  apiTags: { 'Pending devices': 'Agents that enrolled and wait to be promoted to devices, or deleted.' },
  audited: { pendingDevice: 'PendingDevices' },
  demoSeed: seedDemoPendingDevices,
});
