import { defineArea } from '../../area.js';
import { deviceRoutes } from './routes.js';

export const devicesArea = defineArea({
  name: 'devices',
  routes: deviceRoutes,
  apiTags: {
    Devices: 'The fleet of agent-run devices: details, logs, tracing, agent restarts and package installations.',
    Settings: "A tenant's settings as the web app reads them.",
  },
  audited: { device: 'Devices', deviceInstallation: 'Devices' },
});
