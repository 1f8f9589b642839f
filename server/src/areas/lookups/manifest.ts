import { defineArea } from '../../http/area.js';
import { lookupsAccess } from './access-policy.js';
import { lookupRoutes } from './routes.js';

export const lookupsArea = defineArea({
  name: 'lookups',
  routes: lookupRoutes,
  access: lookupsAccess,
});
