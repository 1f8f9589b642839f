import { defineArea } from '../../http/area.js';
import { protocolActionsAccess } from './access-policy.js';
import { protocolActionRoutes } from './routes.js';

export const protocolActionsArea = defineArea({
  name: 'protocolactions',
  routes: protocolActionRoutes,
  access: protocolActionsAccess,
  audited: { protocolAction: 'WorkUnits.Protocols' },
});
