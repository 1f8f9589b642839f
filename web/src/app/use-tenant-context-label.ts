import { useCurrentUser } from '../auth/session-data';
import { useSubscriptionsLookup, useTenantName } from '../lib/lookups';
import { useTenantId } from '../lib/use-tenant-id';

/**
 * The button text: the tenant of the page and, while that is the user's own context, its
 * subscription ("Contoso > Contoso Production"). On a page of another tenant (`/{tenantId}/…`)
 * the header names that tenant alone, since what the page lists and creates is that tenant's.
 */
export function useTenantContextLabel(): string {
  const user = useCurrentUser();
  const pageTenantId = useTenantId();
  const subscriptions = useSubscriptionsLookup().data;
  const tenantId = pageTenantId || user.tenantId;
  const tenant = useTenantName(tenantId);
  if (tenantId !== user.tenantId) return tenant ?? 'Tenant';
  const subscription = subscriptions?.find((candidate) => candidate.subscriptionId === user.subscriptionId)?.name;
  return `${tenant ?? 'Tenant'} > ${subscription ?? 'Subscription'}`;
}
