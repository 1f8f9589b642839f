import { queryOptions } from '@tanstack/react-query';
import type { OidcClientConfig } from '@cfs/contracts/shell';
import { apiGet } from '../lib/api-client';
import { CONFIG_PATH, takeEarlyConfig } from './early-start';

/** The identity provider and client the browser signs in with; loaded before anything else (spec 000 §7). */
export const oidcClientConfigQuery = queryOptions({
  queryKey: ['generalLookup', 'oidcclientconfig'],
  // The page's early script has usually asked already (early-start.ts).
  queryFn: async ({ signal }) =>
    (await takeEarlyConfig()) ?? apiGet<OidcClientConfig>(CONFIG_PATH, undefined, { signal }),
  staleTime: Infinity,
  gcTime: Infinity,
});
