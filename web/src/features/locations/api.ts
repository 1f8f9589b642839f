import { useQuery } from '@tanstack/react-query';
import { LOCATION_MESSAGES, type Location as LocationEntity, type LocationInput } from '@cfs/contracts/locations';
import { apiGet, apiSend } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey } from '../../lib/list-api';
import { lookupKeys } from '../../lib/lookups';
import { useApiMutation } from '../../lib/mutations';

/** Locations (spec 002 §2 Locations, §7). */
export const LOCATIONS_PATH = '/v1/locations';

export type Location = JsonOf<LocationEntity> & { tenant?: { tenantId: string; name: string } | null };

/** The id comes from the address (`?locationId=`): checked, and encoded into the path. */
export function useLocation(id: string | null) {
  return useQuery({
    queryKey: ['location', id],
    queryFn: ({ signal }) =>
      isGuid(id)
        ? apiGet<Location>(`${LOCATIONS_PATH}/${pathId(id)}`, undefined, { signal })
        : Promise.reject(notFoundError()),
    enabled: id !== null && id !== 'new',
  });
}

export function useSaveLocation(id: string) {
  return useApiMutation({
    mutationFn: (input: LocationInput) =>
      id === 'new'
        ? apiSend<Location>('PUT', LOCATIONS_PATH, input)
        : apiSend<Location>('POST', `${LOCATIONS_PATH}/${pathId(id)}`, input),
    // Other screens offer locations through the shared lookup.
    invalidate: [listQueryKey(LOCATIONS_PATH), ['location'], lookupKeys.locations],
    successMessage: LOCATION_MESSAGES.saved,
    errorMessage: LOCATION_MESSAGES.saveFailed,
  });
}
