import { useState, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import { FLEET_MESSAGES, FLEET_POLLING_MS } from '@cfs/contracts/fleet';
import { DateWithAge } from './date-with-age';

/** A log entry as the logs calls answer it (spec 002 §3 Log entry; block logs have no type). */
export interface LogEntryRow {
  logEntryId: number;
  created: string;
  entryType?: string;
  detail: string;
}

/** The Auto-Refresh (30 sec) switch's state and the polling interval it asks for (spec 002 §9). */
export function useAutoRefresh(): {
  autoRefresh: boolean;
  setAutoRefresh: (on: boolean) => void;
  refetchInterval: number | false;
} {
  const [autoRefresh, setAutoRefresh] = useState(false);
  return { autoRefresh, setAutoRefresh, refetchInterval: autoRefresh ? FLEET_POLLING_MS.logsAutoRefresh : false };
}

/**
 * Log entries newest first, with a Refresh button and the Auto-Refresh (30 sec) switch, and
 * "No Logs Found." when there are none (spec 002 §2 Device Logs, §8). `leading` goes before the
 * buttons (a Back button, a heading), `before` between them and the entries (a script's runs).
 *
 * @example
 *   const refresh = useAutoRefresh();
 *   const logs = useDeviceLogs(id, refresh.refetchInterval);
 *   <LogEntries logs={logs} refresh={refresh} label="Device logs" />
 */
export function LogEntries({
  logs,
  refresh,
  label,
  leading,
  before,
}: {
  logs: UseQueryResult<LogEntryRow[]>;
  refresh: ReturnType<typeof useAutoRefresh>;
  label: string;
  leading?: ReactNode;
  before?: ReactNode;
}) {
  const typed = logs.data?.some((entry) => entry.entryType !== undefined) ?? false;
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        {leading}
        <Button startIcon={<RefreshIcon />} onClick={() => void logs.refetch()} disabled={logs.isFetching}>
          Refresh
        </Button>
        <FormControlLabel
          control={
            <Switch checked={refresh.autoRefresh} onChange={(event) => refresh.setAutoRefresh(event.target.checked)} />
          }
          label="Auto-Refresh (30 sec)"
        />
      </Box>
      {before}
      {logs.isFetching && <LinearProgress />}
      {logs.data && logs.data.length === 0 && <Typography color="text.secondary">{FLEET_MESSAGES.noLogs}</Typography>}
      {logs.data && logs.data.length > 0 && (
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              <TableCell>Created</TableCell>
              {typed && <TableCell>Type</TableCell>}
              <TableCell>Detail</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {logs.data.map((entry) => (
              <TableRow key={entry.logEntryId}>
                <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                  <DateWithAge value={entry.created} />
                </TableCell>
                {typed && <TableCell sx={{ verticalAlign: 'top' }}>{entry.entryType}</TableCell>}
                <TableCell sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{entry.detail}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
