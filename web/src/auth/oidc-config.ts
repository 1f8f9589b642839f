import { queryOptions } from '@tanstack/react-query';
import type { OidcClientConfig } from '@cfs/contracts/shell';
import { apiGet } from '../lib/api-client';

/** The identity provider and client the browser signs in with; loaded before anything else (spec 000 §7). */
export const oidcClientConfigQuery = queryOptions({
  queryKey: ['generalLookup', 'oidcclientconfig'],
  queryFn: ({ signal }) => apiGet<OidcClientConfig>('/api/generalLookup/oidcclientconfig', undefined, { signal }),
  staleTime: Infinity,
  gcTime: Infinity,
});
