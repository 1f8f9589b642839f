import { defineArea } from '../../area.js';
import { liveRoutes } from './routes.js';

export const liveArea = defineArea({
  name: 'live',
  routes: liveRoutes,
  apiTags: { Live: 'A stream of server-sent events telling a tab, as it happens, which of its screens changed.' },
});
