import { defineArea } from '../../area.js';
import { homeRoutes } from './routes.js';

export const homeArea = defineArea({
  name: 'home',
  routes: homeRoutes,
  apiTags: {
    Home: "The home page's figures of a tenant: work units, devices, rule matches, communications and compliance.",
  },
});
