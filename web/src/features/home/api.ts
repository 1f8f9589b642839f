import { useQuery } from '@tanstack/react-query';
import {
  HOME_POLLING_MS,
  type HomeCommunications,
  type HomeCompliance,
  type HomeDevices,
  type HomeRuleMatches,
  type HomeTile,
  type HomeWorkUnits,
} from '@cfs/contracts/home';
import { apiGet } from '../../lib/api-client';
import { isGuid } from '@cfs/contracts/values/odata';

/** The figures of each Home tile (GET /v1/home/{tile}?tenantId=), by tile. */
export interface HomeFigures {
  workunits: HomeWorkUnits;
  devices: HomeDevices;
  rulematches: HomeRuleMatches;
  communications: HomeCommunications;
  compliance: HomeCompliance;
}

/**
 * One tile's figures for the tenant on the page, refreshed while the page is open. `enabled` is
 * the user's permission for the tile's area: a tile the user may not see is never asked for.
 */
export function useHomeTile<T extends HomeTile>(
  tile: T,
  tenantId: string,
  enabled: boolean,
  params: Record<string, string> = {},
) {
  return useQuery({
    queryKey: ['home', tenantId, tile, params],
    queryFn: ({ signal }) => apiGet<HomeFigures[T]>(`/v1/home/${tile}`, { ...params, tenantId }, { signal }),
    enabled: enabled && isGuid(tenantId),
    refetchInterval: HOME_POLLING_MS,
  });
}
