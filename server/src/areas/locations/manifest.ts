import { defineArea } from '../../http/area.js';
import { locationsAccess } from './access-policy.js';
import { seedDemoLocations } from './demo.js';
import { locationRoutes } from './routes.js';

export const locationsArea = defineArea({
  name: 'locations',
  routes: locationRoutes,
  access: locationsAccess,
  audited: { location: 'Locations' },
  demoSeed: (trx) => seedDemoLocations(trx),
});
