import { defineArea } from '../../http/area.js';
import { packageRoutes } from './routes.js';

export const packagesArea = defineArea({
  name: 'packages',
  routes: packageRoutes,
  audited: { package: 'Packages', operation: 'Packages', packageVersion: 'Packages' },
});
