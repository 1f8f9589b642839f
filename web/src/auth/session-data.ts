import { queryOptions, useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { useSignIn } from './sign-in';
import type { CurrentUser, SessionStart } from '@cfs/contracts/shell';
import { PermissionSet } from '@cfs/contracts/permissions';
import { apiGet } from '../lib/api-client';
import { environmentQuery } from '../lib/environment';
import { subscriptionsLookupQuery, tenantsLookupQuery, versionQuery } from '../lib/lookups';
import { takeEarlySessionStart } from './early-start';

/**
 * The session's start (`GET /v1/session`): permissions, current user, tenants, subscriptions,
 * environment and version in one answer, keyed by the signed-in subject so a different user
 * never sees the previous one's data. The first is usually the page's early call (early-start.ts).
 */
export function sessionStartQuery(subject: string) {
  return queryOptions({
    queryKey: ['session', subject, 'start'],
    // A 403 here means "no access at all": the gate shows the access-denied page instead of a toast (spec 000 §6).
    queryFn: async ({ signal }) =>
      (await takeEarlySessionStart(subject)) ??
      apiGet<SessionStart>('/v1/session', undefined, { signal, allowForbidden: true }),
    staleTime: Infinity,
  });
}

export function useSessionSubject(): string {
  const { user } = useSignIn();
  return user?.profile.sub ?? '';
}

const toPermissionSet = (start: SessionStart) => new PermissionSet(start.permissions);
const toCurrentUser = (start: SessionStart) => start.currentUser;

/**
 * The signed-in user's permissions, loaded once after sign-in (spec 000 §6).
 * Inside the app routes the gate has loaded them already, so this never waits there.
 *
 * @example
 *   const permissions = usePermissions();
 *   if (permissions.has('Tenants', 'edit')) …
 */
export function usePermissions(): PermissionSet {
  return useSuspenseQuery({ ...sessionStartQuery(useSessionSubject()), select: toPermissionSet }).data;
}

/** The signed-in user: name, userName, email, tenantId, subscriptionId. */
export function useCurrentUser(): CurrentUser {
  return useSuspenseQuery({ ...sessionStartQuery(useSessionSubject()), select: toCurrentUser }).data;
}

/**
 * Loads what the shell needs first — permissions, current user, tenants, subscriptions,
 * environment and version — in one call, as soon as the configuration names a stored sign-in
 * whose token is live, and puts the lookups among it in flight under their own queries, so the
 * gates and the shell find them in the cache or on their way. Otherwise they would go one round
 * after another: the provider reading the stored sign-in, the session gate, the tenant gate, then
 * the shell. Nothing is sent for a sign-in that needs renewing first: its token would be refused.
 */
export function prefetchSessionData(queryClient: QueryClient, subject: string): void {
  const start = queryClient.fetchQuery(sessionStartQuery(subject));
  const part =
    <K extends keyof SessionStart>(key: K) =>
    async () =>
      (await start)[key];
  void queryClient.prefetchQuery({ ...tenantsLookupQuery, queryFn: part('tenants') });
  void queryClient.prefetchQuery({ ...subscriptionsLookupQuery, queryFn: part('subscriptions') });
  void queryClient.prefetchQuery({ ...environmentQuery, queryFn: part('environment') });
  void queryClient.prefetchQuery({ ...versionQuery, queryFn: async () => ({ version: (await start).version }) });
  // Its failure is the gate's to show (SessionDataGate), from the session start's own query.
  start.catch(() => undefined);
}
