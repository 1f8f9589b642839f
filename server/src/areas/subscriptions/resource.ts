import { defineResource } from '../../odata/resource.js';

/** GET v1/subscriptions, filtered by tenantId in the tenant's Subscriptions drawer. */
export const subscriptionsResource = defineResource({
  table: 'subscription',
  key: 'subscriptionId',
  fields: {
    subscriptionId: { type: 'guid' },
    tenantId: { type: 'guid' },
    name: { type: 'string' },
    created: { type: 'datetime' },
    modified: { type: 'datetime' },
  },
  defaultOrderBy: 'name asc',
});
