import { defineArea } from '../../http/area.js';
import { subscriptionsAccess } from './access-policy.js';
import { subscriptionRoutes } from './routes.js';

export const subscriptionsArea = defineArea({
  name: 'subscriptions',
  routes: subscriptionRoutes,
  access: subscriptionsAccess,
  audited: { subscription: 'Subscriptions' },
});
