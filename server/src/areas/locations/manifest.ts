import { defineArea } from '../../area.js';
import { seedDemoLocations } from './demo.js';
import { locationRoutes } from './routes.js';

export const locationsArea = defineArea({
  name: 'locations',
  routes: locationRoutes,
  apiTags: { Locations: 'The places devices are at.' },
  audited: { location: 'Locations' },
  demoSeed: (trx) => seedDemoLocations(trx),
});
