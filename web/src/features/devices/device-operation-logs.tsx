import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { LogEntries, useAutoRefresh } from '../../components/log-entries';
import { OPERATION_TYPES } from '@cfs/contracts/fleet';
import { useOperationLogs, type DeviceOperation } from './device-operation-api';
import { DeviceScriptRuns } from './device-script-runs';

/** Operation Logs: what the agent reported running the operation, newest first; a Script operation's runs above them. */
export function DeviceOperationLogs({ row, onBack }: { row: DeviceOperation; onBack: () => void }) {
  const refresh = useAutoRefresh();
  const logs = useOperationLogs(row.deviceOperationId, refresh.refetchInterval);
  const script = row.operation?.operationType === OPERATION_TYPES.Script;
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
      before={
        script ? (
          <DeviceScriptRuns
            deviceOperationId={row.deviceOperationId}
            refetchInterval={refresh.refetchInterval}
            refreshedAt={logs.dataUpdatedAt}
          />
        ) : null
      }
    />
  );
}
