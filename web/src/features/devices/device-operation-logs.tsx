import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { LogEntries, useAutoRefresh } from '../../components/log-entries';
import { useOperationLogs, type DeviceOperation } from './device-operation-api';

/** Operation Logs: what the agent reported running the operation, newest first. */
export function DeviceOperationLogs({ row, onBack }: { row: DeviceOperation; onBack: () => void }) {
  const refresh = useAutoRefresh();
  const logs = useOperationLogs(row.deviceOperationId, refresh.refetchInterval);
  return (
    <LogEntries
      logs={logs}
      refresh={refresh}
      label="Operation logs"
      leading={
        <>
          <Button startIcon={<ArrowBackIcon />} onClick={onBack}>
            Back to Operations
          </Button>
          <Typography variant="h6" component="h3">
            Operation Logs: {row.label}
          </Typography>
        </>
      }
    />
  );
}
