import { defineArea } from '../../area.js';
import { softwareRoutes } from './routes.js';

export const softwareArea = defineArea({
  name: 'software',
  routes: softwareRoutes,
  apiTags: { Software: "The software installed across the fleet, as each device's agent last reported it." },
});
