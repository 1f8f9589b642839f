import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EnvironmentInfo } from '@cfs/contracts/shell';
import { DEFAULT_ENVIRONMENT_NAME } from '@cfs/contracts/constants';
import { apiGet } from './api-client';

export const environmentQuery = queryOptions({
  queryKey: ['generalLookup', 'environment'],
  queryFn: ({ signal }) => apiGet<EnvironmentInfo>('/api/generalLookup/environment', undefined, { signal }),
  staleTime: 10 * 60_000,
});

/** Environment name, colour and licence expiration; asked only once signed in (the call needs a token). */
export function useEnvironment(enabled = true) {
  return useQuery({ ...environmentQuery, enabled });
}

/** The company part of the document title (spec 000 §2); "CFS Portal" until the server answers. */
export function useEnvironmentName(enabled = true): string {
  const { data } = useEnvironment(enabled);
  return data?.environmentName || DEFAULT_ENVIRONMENT_NAME;
}
