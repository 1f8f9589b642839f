import { useState } from 'react';
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
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import RefreshIcon from '@mui/icons-material/Refresh';
import { FLEET_MESSAGES, FLEET_POLLING_MS } from '@cfs/contracts/fleet';
import { DateWithAge } from '../../components/date-with-age';
import { useOperationLogs, type DeviceOperation } from './device-operation-api';

/** Operation Logs: what the agent reported running the operation, newest first. */
export function DeviceOperationLogs({ row, onBack }: { row: DeviceOperation; onBack: () => void }) {
  const [autoRefresh, setAutoRefresh] = useState(false);
  const logs = useOperationLogs(row.deviceOperationId, autoRefresh ? FLEET_POLLING_MS.logsAutoRefresh : false);
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <Button startIcon={<ArrowBackIcon />} onClick={onBack}>
          Back to Operations
        </Button>
        <Typography variant="h6" component="h3">
          Operation Logs: {row.label}
        </Typography>
        <Button startIcon={<RefreshIcon />} onClick={() => void logs.refetch()} disabled={logs.isFetching}>
          Refresh
        </Button>
        <FormControlLabel control={<Switch checked={autoRefresh} onChange={(event) => setAutoRefresh(event.target.checked)} />} label="Auto-Refresh (30 sec)" />
      </Box>
      {logs.isFetching && <LinearProgress />}
      {logs.data && logs.data.length === 0 && <Typography color="text.secondary">{FLEET_MESSAGES.noLogs}</Typography>}
      {logs.data && logs.data.length > 0 && (
        <Table size="small" aria-label="Operation logs">
          <TableHead>
            <TableRow>
              <TableCell>Created</TableCell>
              <TableCell>Type</TableCell>
              <TableCell>Detail</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {logs.data.map((entry) => (
              <TableRow key={entry.logEntryId}>
                <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                  <DateWithAge value={entry.created} />
                </TableCell>
                <TableCell sx={{ verticalAlign: 'top' }}>{entry.entryType}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{entry.detail}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
