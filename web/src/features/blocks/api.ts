import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  BLOCK_MESSAGES,
  type Block,
  type BlockCreateInput,
  type BlockHistory,
  type BlockUpdateInput,
} from '@cfs/contracts/blocks';
import { MONITORING_LIMITS, MONITORING_POLLING_MS } from '@cfs/contracts/monitoring';
import type { Packet } from '@cfs/contracts/packets';
import { rangeStart, type HistoryPage, type HistoryRange } from '../../components/entity-history';
import type { LogEntryRow } from '../../components/log-entries';
import { PACKETS_PATH } from '../../components/use-packets';
import { apiGet, apiSend } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { guidLiteral, isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { fetchList, listQueryKey } from '../../lib/list-api';
import { useLiveQueries } from '../../lib/live';
import { type ODataParams } from '../../lib/list-query';
import { useApiMutation } from '../../lib/mutations';

export const BLOCKS_PATH = '/v1/blocks';
export type BlockRow = JsonOf<Block>;
export type PacketRow = JsonOf<Packet>;

/** What a tile shows of its entity's open matches: who acknowledged one, until when one is silenced. */
export interface TileMatchState {
  acknowledgedBy: string | null;
  silencedUntil: string | null;
}

/**
 * The tenant's open matches that someone acknowledged or that are held back (a silence or
 * maintenance), by subject: what the tiles mark. Read with the Rules view permission (matches are
 * part of rules), and told of changes with the rule matches.
 */
export function useTileMatchStates(tenantId: string, allowed: boolean, now: number) {
  const query: ODataParams = {
    $filter: `tenantId eq ${guidLiteral(tenantId)} and completionProcessed eq false and expires gt ${new Date(now).toISOString()} and (acknowledged ne null or inMaintenance eq true)`,
    $select: 'ruleMatchId,subjectId,acknowledgedBy,silencedUntil',
    $orderby: 'expires desc',
    $top: String(BLOCKS_SHOWN),
  };
  const path = '/v1/rulematches';
  const live = useLiveQueries(allowed ? 'ruleMatches' : undefined, [listQueryKey(path)]);
  return useQuery({
    queryKey: listQueryKey(path, query),
    queryFn: async ({ signal }) => {
      const page = await fetchList<{ subjectId: string; acknowledgedBy: string | null; silencedUntil: string | null }>(
        path,
        query,
        signal,
      );
      const states = new Map<string, TileMatchState>();
      for (const match of page.rows) {
        const key = match.subjectId.toLowerCase();
        const known = states.get(key);
        states.set(key, {
          acknowledgedBy: known?.acknowledgedBy ?? match.acknowledgedBy,
          silencedUntil:
            [known?.silencedUntil, match.silencedUntil]
              .filter((until): until is string => !!until)
              .sort()
              .at(-1) ?? null,
        });
      }
      return states;
    },
    refetchInterval: live ? false : MONITORING_POLLING_MS.blocks,
    enabled: allowed && isGuid(tenantId),
  });
}

/** The tiles of the screen: every block of the tenant, by name, with its entity's colour. */
const BLOCKS_SHOWN = 1000;
/** Entity ids per packets request: the ids travel in the address, which servers cap at a few kB. */
const IDS_PER_REQUEST = 100;

/** The blocks of the tenant (spec 002 §7 "filter by … tenant, ordered by name; refreshed every 10 s"). */
export function useBlocks(tenantId: string) {
  const query: ODataParams = {
    $filter: `tenantId eq ${guidLiteral(tenantId)}`,
    $orderby: 'name asc',
    $top: String(BLOCKS_SHOWN),
    $expand: 'entityColor',
  };
  const live = useLiveQueries('blocks', [listQueryKey(BLOCKS_PATH)]);
  return useQuery({
    queryKey: listQueryKey(BLOCKS_PATH, query),
    queryFn: ({ signal }) => fetchList<BlockRow>(BLOCKS_PATH, query, signal),
    refetchInterval: live ? false : MONITORING_POLLING_MS.blocks,
    enabled: isGuid(tenantId),
  });
}

/**
 * The latest packet of each tile's entity (GET /v1/packets filtered by entityId in a list, spec
 * 002 §7), refreshed with the tiles; the ids go a hundred to a request.
 */
export function useLatestPackets(entityIds: readonly string[]) {
  const ids = [...entityIds].sort();
  const live = useLiveQueries(ids.length > 0 ? 'blocks' : undefined, [['list', PACKETS_PATH, 'blocks']]);
  return useQuery({
    queryKey: ['list', PACKETS_PATH, 'blocks', ids.join(',')],
    queryFn: async ({ signal }) => {
      const chunks: string[][] = [];
      for (let start = 0; start < ids.length; start += IDS_PER_REQUEST)
        chunks.push(ids.slice(start, start + IDS_PER_REQUEST));
      const pages = await Promise.all(
        chunks.map((chunk) =>
          fetchList<PacketRow>(
            PACKETS_PATH,
            { $filter: `entityId in (${chunk.map(guidLiteral).join(',')})`, $top: String(chunk.length) },
            signal,
          ),
        ),
      );
      return new Map(
        pages.flatMap((page) => page.rows.map((packet) => [packet.entityId.toLowerCase(), packet] as const)),
      );
    },
    enabled: ids.length > 0,
    refetchInterval: live ? false : MONITORING_POLLING_MS.blocks,
    placeholderData: keepPreviousData,
  });
}

/** One block (`?blockId=`): checked before it is asked for. */
export function useBlock(id: string | null) {
  return useQuery({
    queryKey: ['block', id],
    queryFn: () => (isGuid(id) ? apiGet<BlockRow>(`${BLOCKS_PATH}/${pathId(id)}`) : Promise.reject(notFoundError())),
    enabled: id !== null && id !== 'new',
  });
}

const invalidate = (id?: string) => [listQueryKey(BLOCKS_PATH), ...(id ? [['block', id]] : [])];

export function useCreateBlock() {
  return useApiMutation({
    mutationFn: (input: BlockCreateInput) => apiSend<BlockRow>('PUT', BLOCKS_PATH, input),
    invalidate: (saved) => invalidate(saved.blockId),
    successMessage: BLOCK_MESSAGES.saved,
    errorMessage: BLOCK_MESSAGES.saveFailed,
  });
}

/** An edit sends only the name and the description (spec 002 §4). */
export function useUpdateBlock(id: string) {
  return useApiMutation({
    mutationFn: (input: BlockUpdateInput) =>
      apiSend<BlockRow>('POST', `${BLOCKS_PATH}/${pathId(id)}`, { name: input.name, description: input.description }),
    invalidate: invalidate(id),
    successMessage: BLOCK_MESSAGES.saved,
    errorMessage: BLOCK_MESSAGES.saveFailed,
  });
}

export function useDeleteBlock() {
  return useApiMutation({
    mutationFn: (id: string) => apiSend<{ message: string }>('DELETE', `${BLOCKS_PATH}/${pathId(id)}`),
    invalidate: [listQueryKey(BLOCKS_PATH)],
    successMessage: BLOCK_MESSAGES.deleted,
    errorMessage: BLOCK_MESSAGES.deleteFailed,
  });
}

/** A page of the block's history (100 rows, spec 002 §9) over the chosen range, refreshed with the drawer. */
export function useBlockHistory(id: string, range: HistoryRange, pageIndex: number) {
  return useQuery({
    queryKey: ['block', id, 'history', range, pageIndex],
    queryFn: async ({ signal }): Promise<HistoryPage> => {
      const answer = await apiGet<BlockHistory>(
        `${BLOCKS_PATH}/${pathId(id)}/history`,
        { pageNumber: pageIndex + 1, rowCount: MONITORING_LIMITS.blockHistoryPageSize, from: rangeStart(range) },
        { signal },
      );
      return {
        rows: answer.historyItems,
        total: answer.totalCount,
        hasNext: (pageIndex + 1) * MONITORING_LIMITS.blockHistoryPageSize < answer.totalCount,
      };
    },
    refetchInterval: MONITORING_POLLING_MS.packetDrawer,
    placeholderData: keepPreviousData,
  });
}

export function useBlockLogs(id: string, refetchInterval: number | false) {
  return useQuery({
    queryKey: ['block', id, 'logs'],
    queryFn: ({ signal }) => apiGet<LogEntryRow[]>(`${BLOCKS_PATH}/${pathId(id)}/logs`, undefined, { signal }),
    refetchInterval,
  });
}
