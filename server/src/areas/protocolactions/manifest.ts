import { defineArea } from '../../http/area.js';
import { protocolActionRoutes } from './routes.js';

export const protocolActionsArea = defineArea({
  name: 'protocolactions',
  routes: protocolActionRoutes,
  audited: { protocolAction: 'WorkUnits.Protocols' },
});
