import { defineArea } from '../../http/area.js';
import { seedDemoLocations } from './demo.js';
import { locationRoutes } from './routes.js';

export const locationsArea = defineArea({
  name: 'locations',
  routes: locationRoutes,
  audited: { location: 'Locations' },
  demoSeed: (trx) => seedDemoLocations(trx),
});
