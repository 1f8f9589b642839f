import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  BLOCK_HISTORY_RANGE_LABELS,
  BLOCK_HISTORY_RANGES,
  BLOCK_MESSAGES,
  type BlockHistoryRange,
} from '@cfs/contracts/blocks';
import { MONITORING_LIMITS, MONITORING_POLLING_MS } from '@cfs/contracts/monitoring';
import type { PacketSeries } from '@cfs/contracts/packet-series';
import { apiGet } from '../lib/api-client';
import { formatDateTime } from '../lib/dates';
import { DateWithAge } from './date-with-age';
import { formatPacketValue } from './packet-view';

// The chart library is large: it loads when a chart is first shown, not with the drawer or page.
const HistoryChart = lazy(() => import('./history-chart'));

export type HistoryRange = BlockHistoryRange;
export const HISTORY_PAGE_SIZE = MONITORING_LIMITS.blockHistoryPageSize;

/** One row of an entity's history as the History tab shows it (spec 002 §3 Block history item). */
export interface HistoryRow {
  timestamp: string;
  receivedTimestamp: string;
  value: string | number | boolean | null;
}

/** A page of the history: its rows, and the total when the source counts (blocks) or whether more follow (packets). */
export interface HistoryPage {
  rows: HistoryRow[];
  total?: number;
  hasNext: boolean;
}

/** The start of a range, read when the request is sent, so that each refresh moves with the clock. */
export function rangeStart(range: HistoryRange, now = Date.now()): string {
  return new Date(now - BLOCK_HISTORY_RANGES[range]).toISOString();
}

/** The chart's points: the entity's numeric Values of the range folded into buckets by the server. */
export function useHistorySeries(seriesPath: string | null, range: HistoryRange) {
  return useQuery({
    queryKey: ['history-series', seriesPath, range],
    queryFn: ({ signal }) => apiGet<PacketSeries>(seriesPath ?? '', { from: rangeStart(range) }, { signal }),
    enabled: seriesPath !== null,
    refetchInterval: MONITORING_POLLING_MS.packetDrawer,
  });
}

export interface EntityHistoryProps {
  range: HistoryRange;
  onRangeChange: (range: HistoryRange) => void;
  /** The chart's series over the range (empty when no Value is numeric: then no chart). */
  series: ReturnType<typeof useHistorySeries>;
  /** The page of rows shown, and its zero-based index. */
  page: { data?: HistoryPage | undefined; isFetching: boolean; isError: boolean };
  pageIndex: number;
  onPageChange: (pageIndex: number) => void;
}

/**
 * An entity's history over the range the user picks (last hour, day or 7 days): a line chart of
 * its numeric Values (average, highest and lowest per point) above a table of its packets, 100 a
 * page (spec 002 §9), newest first; 'No History Found.' when the range holds none. The block's
 * History tab and the Packet drawer's read their rows from their own calls.
 *
 * @example
 *   <EntityHistory range={range} onRangeChange={setRange} series={useHistorySeries(`/v1/blocks/${id}/series`, range)}
 *     page={useBlockHistory(id, range, pageIndex)} pageIndex={pageIndex} onPageChange={setPageIndex} />
 */
export function EntityHistory({ range, onRangeChange, series, page, pageIndex, onPageChange }: EntityHistoryProps) {
  const rows = page.data?.rows ?? [];
  const points = series.data?.points ?? [];
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={range}
        onChange={(_event, next: HistoryRange | null) => next && onRangeChange(next)}
        aria-label="Time range"
      >
        {(Object.keys(BLOCK_HISTORY_RANGE_LABELS) as HistoryRange[]).map((key) => (
          <ToggleButton key={key} value={key}>
            {BLOCK_HISTORY_RANGE_LABELS[key]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {series.data && points.length > 0 && (
        <Suspense fallback={<Box sx={{ height: 258 }} />}>
          <HistoryChart series={series.data} />
        </Suspense>
      )}
      {page.isFetching && <LinearProgress />}
      {page.isError && <Alert severity="error">The history could not be loaded.</Alert>}
      {page.data && rows.length === 0 && <Typography color="text.secondary">{BLOCK_MESSAGES.noHistory}</Typography>}
      {rows.length > 0 && (
        <Paper variant="outlined">
          <Table size="small" aria-label="History">
            <TableHead>
              <TableRow>
                <TableCell>Timestamp</TableCell>
                <TableCell>Received</TableCell>
                <TableCell align="right">Value</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row, index) => (
                <TableRow key={`${row.timestamp}|${index}`}>
                  <TableCell>
                    <DateWithAge value={row.timestamp} />
                  </TableCell>
                  <TableCell>{formatDateTime(row.receivedTimestamp)}</TableCell>
                  <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', wordBreak: 'break-word' }}>
                    {formatPacketValue(row.value)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={page.data?.total ?? (page.data?.hasNext ? -1 : pageIndex * HISTORY_PAGE_SIZE + rows.length)}
            page={pageIndex}
            onPageChange={(_event, next) => onPageChange(next)}
            rowsPerPage={HISTORY_PAGE_SIZE}
            rowsPerPageOptions={[HISTORY_PAGE_SIZE]}
            slotProps={{ actions: { nextButton: { disabled: !page.data?.hasNext } } }}
          />
        </Paper>
      )}
    </Box>
  );
}
