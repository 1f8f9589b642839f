import { defineArea } from '../../http/area.js';
import { devicesAccess } from './access-policy.js';
import { deviceRoutes } from './routes.js';

export const devicesArea = defineArea({
  name: 'devices',
  routes: deviceRoutes,
  access: devicesAccess,
  audited: { device: 'Devices', deviceInstallation: 'Devices' },
});
