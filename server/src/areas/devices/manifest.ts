import { defineArea } from '../../http/area.js';
import { deviceRoutes } from './routes.js';

export const devicesArea = defineArea({
  name: 'devices',
  routes: deviceRoutes,
  audited: { device: 'Devices', deviceInstallation: 'Devices' },
});
