import { useMutation, useQuery } from '@tanstack/react-query';
import type { TenantSubscriptionContext } from '@cfs/contracts/shell';
import { apiGetBlob, apiSend } from '../lib/api-client';
import { pathId } from '../lib/ids';

/** The shell's own calls (spec 000 §4, §7); the lookups it shares with the areas are in `lib/lookups.ts`. */

export function useSaveTenantContext() {
  return useMutation({
    mutationFn: (context: TenantSubscriptionContext) =>
      apiSend<unknown>('POST', `/v1/tenantSubscriptionContext/${pathId(context.tenant)}`, context),
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
