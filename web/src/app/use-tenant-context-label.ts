import { useCurrentUser } from '../auth/session-data';
import { useSubscriptionsLookup, useTenantsLookup } from '../lib/lookups';

/** The button text: the current tenant and subscription names once the lookups answer. */
export function useTenantContextLabel(): string {
  const user = useCurrentUser();
  const tenants = useTenantsLookup().data;
  const subscriptions = useSubscriptionsLookup().data;
  const tenant = tenants?.find((candidate) => candidate.tenantId === user.tenantId)?.name;
  const subscription = subscriptions?.find((candidate) => candidate.subscriptionId === user.subscriptionId)?.name;
  return `${tenant ?? 'Tenant'} > ${subscription ?? 'Subscription'}`;
}
