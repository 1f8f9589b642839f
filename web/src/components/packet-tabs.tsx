import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { FLEET_POLLING_MS } from '@cfs/contracts/fleet';
import type { PacketHistory } from '@cfs/contracts/packets';
import { ApiError, apiGet } from '../lib/api-client';
import { pathId } from '../lib/ids';
import { skipTokenOf } from '../lib/list-query';
import { quote } from '@cfs/contracts/values/odata';
import {
  EntityHistory,
  HISTORY_PAGE_SIZE,
  rangeStart,
  useHistorySeries,
  type HistoryPage,
  type HistoryRange,
} from './entity-history';
import { LogEntries, useAutoRefresh, type LogEntryRow } from './log-entries';
import { PacketView } from './packet-view';
import { RuleMatchesTable } from './rule-matches-table';
import { Timeline, entityTimelinePath } from './timeline';
import { PACKETS_PATH } from './use-packets';

/**
 * The tabs of the Packet drawer and page (spec 002 §2 "A Packet drawer, titled Packet, has the tabs
 * Details, Rule Matches, History and Logs"), and the entity's Timeline of cause and effect.
 */
export const ENTITY_TABS = {
  details: 'Details',
  ruleMatches: 'Rule Matches',
  history: 'History',
  logs: 'Logs',
  timeline: 'Timeline',
} as const;
export type EntityTab = keyof typeof ENTITY_TABS;
export const isEntityTab = (text: string | null): text is EntityTab =>
  text !== null && Object.hasOwn(ENTITY_TABS, text);

/** A page of the entity's packets in the range: keyset pages, each after the last row of the one before. */
function usePacketHistoryPage(entityId: string, range: HistoryRange, skiptoken: string | undefined) {
  return useQuery({
    queryKey: ['packets', 'history', entityId, range, skiptoken ?? null],
    queryFn: async ({ signal }): Promise<HistoryPage & { nextToken?: string }> => {
      try {
        const answer = await apiGet<PacketHistory>(
          `${PACKETS_PATH}/${pathId(entityId)}/history`,
          { from: rangeStart(range), $top: HISTORY_PAGE_SIZE, $skiptoken: skiptoken },
          { signal },
        );
        const nextToken = skipTokenOf(answer['@odata.nextLink']);
        return {
          rows: answer.value.map((packet) => ({
            timestamp: packet.timestamp,
            receivedTimestamp: packet.received,
            value: packet.message.Value ?? null,
          })),
          hasNext: nextToken !== undefined,
          ...(nextToken ? { nextToken } : {}),
        };
      } catch (error) {
        // An entity nobody reported has no history yet: an empty one, not a failure.
        if (error instanceof ApiError && error.status === 404) return { rows: [], hasNext: false };
        throw error;
      }
    },
    refetchInterval: FLEET_POLLING_MS.packetDrawer,
    placeholderData: keepPreviousData,
  });
}

function PacketHistoryTab({ entityId }: { entityId: string }) {
  const [range, setRange] = useState<HistoryRange>('day');
  // tokens[i] starts page i; page 0 has none.
  const [tokens, setTokens] = useState<(string | undefined)[]>([undefined]);
  const [pageIndex, setPageIndex] = useState(0);
  const page = usePacketHistoryPage(entityId, range, tokens[pageIndex]);
  const series = useHistorySeries(`${PACKETS_PATH}/${pathId(entityId)}/series`, range);
  return (
    <EntityHistory
      range={range}
      onRangeChange={(next) => {
        setRange(next);
        setTokens([undefined]);
        setPageIndex(0);
      }}
      series={series}
      page={page}
      pageIndex={pageIndex}
      onPageChange={(next) => {
        const nextToken = page.data?.nextToken;
        if (next > pageIndex && nextToken) setTokens((known) => [...known.slice(0, next), nextToken]);
        setPageIndex(next);
      }}
    />
  );
}

function PacketLogsTab({ entityId }: { entityId: string }) {
  const refresh = useAutoRefresh();
  const logs = useQuery({
    queryKey: ['packets', 'logs', entityId],
    queryFn: async ({ signal }) => {
      try {
        return await apiGet<LogEntryRow[]>(`${PACKETS_PATH}/${pathId(entityId)}/logs`, undefined, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return [];
        throw error;
      }
    },
    refetchInterval: refresh.refetchInterval,
  });
  return <LogEntries logs={logs} refresh={refresh} label="Packet logs" />;
}

/**
 * One entity's packet, with its rule matches, its history (chart and table) and its logs, in the
 * Packet drawer's tabs. `tab` and `onTabChange` let a page keep the tab in its address.
 *
 * @example
 *   const [tab, setTab] = useState<EntityTab>('details');
 *   <PacketTabs entityId={device.deviceId} tab={tab} onTabChange={setTab} />
 */
export function PacketTabs({
  entityId,
  tab,
  onTabChange,
  refreshMs,
}: {
  entityId: string;
  tab: EntityTab;
  onTabChange: (tab: EntityTab) => void;
  refreshMs?: number;
}) {
  return (
    <Box>
      <Tabs
        value={tab}
        onChange={(_event, next: EntityTab) => onTabChange(next)}
        variant="scrollable"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {(Object.keys(ENTITY_TABS) as EntityTab[]).map((key) => (
          <Tab key={key} value={key} label={ENTITY_TABS[key]} />
        ))}
      </Tabs>
      {tab === 'details' && <PacketView entityId={entityId} {...(refreshMs ? { refreshMs } : {})} />}
      {tab === 'ruleMatches' && (
        <RuleMatchesTable filter={`subjectId eq ${quote(entityId)}`} hideSubject label="Packet rule matches" />
      )}
      {tab === 'history' && <PacketHistoryTab entityId={entityId} />}
      {tab === 'logs' && <PacketLogsTab entityId={entityId} />}
      {tab === 'timeline' && <Timeline path={entityTimelinePath(entityId)} />}
    </Box>
  );
}
