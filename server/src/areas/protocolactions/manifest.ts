import { defineArea } from '../../area.js';
import { protocolActionRoutes } from './routes.js';

export const protocolActionsArea = defineArea({
  name: 'protocolactions',
  routes: protocolActionRoutes,
  apiTags: { 'Protocol actions': "A protocol's steps, and the manual ones a user starts on a work unit." },
  audited: { protocolAction: 'WorkUnits.Protocols' },
});
