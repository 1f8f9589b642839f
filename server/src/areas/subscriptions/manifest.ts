import { defineArea } from '../../http/area.js';
import { subscriptionRoutes } from './routes.js';

export const subscriptionsArea = defineArea({
  name: 'subscriptions',
  routes: subscriptionRoutes,
  audited: { subscription: 'Subscriptions' },
});
