import { useQuery } from '@tanstack/react-query';
import type { Packet, PacketHistory } from '@cfs/contracts/packets';
import { apiGet } from '../lib/api-client';
import { pathId } from '../lib/ids';
import { guidLiteral, isGuid } from '@cfs/contracts/values/odata';
import { listItemQueryOptions } from '../lib/list-api';

export const PACKETS_PATH = '/v1/packets';
/** Rows of history the packet view shows under the latest packet. */
const HISTORY_ROWS = 25;

export type { Packet };

/**
 * The latest packet of an entity (spec 002 §7: GET v1/packets filtered by entityId in a list) and
 * its recent history, both refreshed every `refreshMs`. The history is asked for only once the
 * entity has a packet: an entity nobody reported has none, and its history answers 404.
 */
export function usePackets(entityId: string, refreshMs: number) {
  const valid = isGuid(entityId);
  const latest = useQuery({
    ...listItemQueryOptions<Packet>(PACKETS_PATH, valid ? `entityId in (${guidLiteral(entityId)})` : 'false'),
    enabled: valid,
    refetchInterval: refreshMs,
  });
  const history = useQuery({
    queryKey: ['packets', 'history', entityId],
    queryFn: ({ signal }) =>
      apiGet<PacketHistory>(`${PACKETS_PATH}/${pathId(entityId)}/history`, { $top: HISTORY_ROWS }, { signal }),
    enabled: valid && Boolean(latest.data),
    refetchInterval: refreshMs,
  });
  return { latest, history, valid };
}
