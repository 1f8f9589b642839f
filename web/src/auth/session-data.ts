import { queryOptions, useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { useAuth } from 'react-oidc-context';
import type { CurrentUser } from '@cfs/contracts/shell';
import { PermissionSet } from '@cfs/contracts/permissions';
import { apiGet } from '../lib/api-client';
import { isGuid } from '../lib/ids';
import { tenantsLookupQuery } from '../lib/lookups';

// Keyed by the signed-in subject so a different user never sees the previous one's data.
export function permissionsQuery(subject: string) {
  return queryOptions({
    queryKey: ['session', subject, 'permissions'],
    // A 403 here means "no access at all": the gate shows the access-denied page instead of a toast (spec 000 §6).
    queryFn: ({ signal }) => apiGet<string[]>('/v1/permissions', undefined, { signal, allowForbidden: true }),
    staleTime: Infinity,
  });
}

export function currentUserQuery(subject: string) {
  return queryOptions({
    queryKey: ['session', subject, 'currentUser'],
    queryFn: ({ signal }) => apiGet<CurrentUser>('/v1/currentUser', undefined, { signal, allowForbidden: true }),
    staleTime: Infinity,
  });
}

export function useSessionSubject(): string {
  const { user } = useAuth();
  return user?.profile.sub ?? '';
}

const toPermissionSet = (strings: string[]) => new PermissionSet(strings);

/**
 * The signed-in user's permissions, loaded once after sign-in (spec 000 §6).
 * Inside the app routes the gate has loaded them already, so this never waits there.
 *
 * @example
 *   const permissions = usePermissions();
 *   if (permissions.has('Tenants', 'edit')) …
 */
export function usePermissions(): PermissionSet {
  return useSuspenseQuery({ ...permissionsQuery(useSessionSubject()), select: toPermissionSet }).data;
}

/** The signed-in user: name, userName, email, tenantId, subscriptionId. */
export function useCurrentUser(): CurrentUser {
  return useSuspenseQuery(currentUserQuery(useSessionSubject())).data;
}

/**
 * Sends the start-up calls the gates wait for (permissions and current user, and on a tenant's
 * page the tenant lookup that checks the tenant is the user's), all at once, as soon as the
 * configuration names a stored sign-in whose token is live. Otherwise they would go one round
 * after another: the provider reading the stored sign-in, the session gate, then the tenant gate.
 * The gates then find them in the cache or in flight. Nothing is sent for a sign-in that needs
 * renewing first: its token would be refused.
 */
export function prefetchSessionData(queryClient: QueryClient, subject: string, pathname: string): void {
  void queryClient.prefetchQuery(permissionsQuery(subject));
  void queryClient.prefetchQuery(currentUserQuery(subject));
  if (isGuid(pathname.split('/')[1])) void queryClient.prefetchQuery(tenantsLookupQuery);
}
