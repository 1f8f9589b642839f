import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { SubscriptionLookup, TenantLookup, TenantSubscriptionContext } from '@cfs/contracts/shell';
import { apiGet, apiGetBlob, apiSend } from '../lib/api-client';

/** The shell's lookup calls (spec 000 §7). */
export const versionQuery = queryOptions({
  queryKey: ['generalLookup', 'version'],
  queryFn: ({ signal }) => apiGet<{ version: string }>('/api/generalLookup/version', undefined, { signal }),
  staleTime: Infinity,
});

export const tenantsLookupQuery = queryOptions({
  queryKey: ['generallookup', 'tenants'],
  queryFn: ({ signal }) => apiGet<TenantLookup[]>('/api/generallookup/tenants', undefined, { signal }),
  staleTime: 5 * 60_000,
});

export const subscriptionsLookupQuery = queryOptions({
  queryKey: ['generallookup', 'subscriptions'],
  queryFn: ({ signal }) => apiGet<SubscriptionLookup[]>('/api/generallookup/subscriptions', undefined, { signal }),
  staleTime: 5 * 60_000,
});

export function useVersion() {
  return useQuery(versionQuery).data?.version;
}

export function useTenantsLookup() {
  return useQuery(tenantsLookupQuery);
}

/** Subscriptions are fetched again whenever a screen that uses them mounts (spec 000 §7). */
export function useSubscriptionsLookup() {
  return useQuery({ ...subscriptionsLookupQuery, refetchOnMount: 'always' });
}

export function useSaveTenantContext() {
  return useMutation({
    mutationFn: (context: TenantSubscriptionContext) => apiSend<unknown>('POST', `/v1/tenantSubscriptionContext/${context.tenant}`, context),
  });
}

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The photo could not be read.'));
    reader.readAsDataURL(blob);
  });
}

/**
 * The current user's photo as a data URL (the call needs the bearer token, so an <img src>
 * cannot load it directly; a data URL needs no revoking). Undefined when there is none.
 */
export function useCurrentUserPhoto(subject: string): string | undefined {
  const { data } = useQuery({
    queryKey: ['session', subject, 'photo'],
    queryFn: async ({ signal }) => {
      // No photo is normal (404); a missing permission must not raise the access toast.
      const blob = await apiGetBlob('/api/auth/currentUserPhoto', undefined, { signal, allowForbidden: true });
      return blob.type.startsWith('image/') ? blobToDataUrl(blob) : null;
    },
    retry: false,
    staleTime: Infinity,
  });
  return data ?? undefined;
}
