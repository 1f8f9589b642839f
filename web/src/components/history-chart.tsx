import Paper from '@mui/material/Paper';
import { LineChart } from '@mui/x-charts/LineChart';
import { BLOCK_HISTORY_RANGES } from '@cfs/contracts/blocks';
import type { PacketSeries } from '@cfs/contracts/packet-series';
import { formatDate, formatDateTime, formatTime } from '../lib/dates';
import { formatPacketValue } from './packet-view';

/** The History tab's line chart: average, highest and lowest Value per point of the range. */
export default function HistoryChart({ series }: { series: PacketSeries }) {
  // Ticks short (the time, or the day over a week), the tooltip the whole date.
  const week = 2 * BLOCK_HISTORY_RANGES.day < Date.parse(series.to) - Date.parse(series.from);
  const tick = (value: Date) => (week ? formatDate(value) : formatTime(value).slice(0, 5));
  const times = series.points.map((point) => new Date(point.timestamp));
  return (
    <Paper variant="outlined" sx={{ p: 1 }} component="section" aria-label="History chart" data-testid="history-chart">
      <LineChart
        height={240}
        xAxis={[
          {
            data: times,
            scaleType: 'time',
            min: new Date(series.from),
            max: new Date(series.to),
            valueFormatter: (value: Date, context) =>
              context.location === 'tick' ? tick(value) : formatDateTime(value),
          },
        ]}
        series={[
          {
            data: series.points.map((point) => point.average),
            label: 'Average',
            showMark: series.points.length < 40,
            valueFormatter: (value) => formatPacketValue(value),
          },
          {
            data: series.points.map((point) => point.maximum),
            label: 'Highest',
            showMark: false,
            valueFormatter: (value) => formatPacketValue(value),
          },
          {
            data: series.points.map((point) => point.minimum),
            label: 'Lowest',
            showMark: false,
            valueFormatter: (value) => formatPacketValue(value),
          },
        ]}
        margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
        grid={{ horizontal: true }}
        // Redrawn on every refresh: a line that grows in each time would only distract.
        skipAnimation
      />
    </Paper>
  );
}
