import { defineArea } from '../../http/area.js';
import { lookupRoutes } from './routes.js';

export const lookupsArea = defineArea({
  name: 'lookups',
  routes: lookupRoutes,
});
