import { defineArea } from '../../area.js';
import { lookupRoutes } from './routes.js';

export const lookupsArea = defineArea({
  name: 'lookups',
  routes: lookupRoutes,
  apiTags: {
    Lookups:
      "Choices the portal's forms offer: tenants, subscriptions, work unit types, time zones, rule operators and the like.",
  },
});
