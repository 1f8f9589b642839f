import { defineArea } from '../../area.js';
import { subscriptionRoutes } from './routes.js';

export const subscriptionsArea = defineArea({
  name: 'subscriptions',
  routes: subscriptionRoutes,
  apiTags: { Subscriptions: "A tenant's subscriptions, which scope its work units, rules and devices." },
  audited: { subscription: 'Subscriptions' },
});
