import { subscriptionInputSchema, subscriptionSchema } from '@cfs/contracts/tenants';
import { defineEntity } from '../../odata/entity.js';

/** GET v1/subscriptions, filtered by tenantId in the tenant's Subscriptions drawer. */
export const subscriptionEntity = defineEntity({
  table: 'subscription',
  key: 'subscriptionId',
  contract: subscriptionSchema,
  writable: subscriptionInputSchema,
  defaultOrderBy: 'name asc',
});
