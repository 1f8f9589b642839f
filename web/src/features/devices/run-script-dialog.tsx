import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SCRIPT_LIMITS } from '@cfs/contracts/agent';
import type { BulkOutcomeApi } from '../../components/bulk-result-dialog';
import { useRunScript, useScriptOperations } from './device-operation-api';

export interface RunScriptDialogProps {
  tenantId: string;
  deviceIds: readonly string[];
  outcome: BulkOutcomeApi;
  /** The devices' names, as the answer gives them, for the refusals' list. */
  onNames: (names: ReadonlyMap<string, string>) => void;
  onClose: () => void;
}

/**
 * Run Script on the devices checked in the grid: a Script operation of the catalogue, queued on
 * each of them with an optional timeout. Devices where its package is not installed are listed
 * with the reason and stay checked.
 */
export function RunScriptDialog({ tenantId, deviceIds, outcome, onNames, onClose }: RunScriptDialogProps) {
  const scripts = useScriptOperations(tenantId, true);
  const run = useRunScript();
  const [operationId, setOperationId] = useState('');
  const [timeoutText, setTimeoutText] = useState('');
  const seconds = timeoutText.trim() === '' ? undefined : Number(timeoutText);
  const badTimeout =
    seconds !== undefined && !(Number.isInteger(seconds) && seconds >= 1 && seconds <= SCRIPT_LIMITS.timeoutSecondsMax);
  const chosen = scripts.data?.find((row) => row.operationId === operationId);
  const submit = async () => {
    const answer = await run
      .mutateAsync({
        operationId,
        deviceIds: [...deviceIds],
        ...(seconds === undefined ? {} : { timeoutSeconds: seconds }),
      })
      .catch(() => undefined);
    if (!answer) return;
    onNames(new Map(answer.map((row) => [row.deviceId, row.deviceName])));
    onClose();
    outcome.report(`Run Script: ${chosen?.name ?? ''}`, {
      succeeded: answer.filter((row) => row.queued).map((row) => row.deviceId),
      refused: answer.filter((row) => !row.queued).map((row) => ({ id: row.deviceId, message: row.message })),
    });
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="run-script-title">
      <DialogTitle id="run-script-title">Run Script</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          On {deviceIds.length} {deviceIds.length === 1 ? 'device' : 'devices'}, where the script's package is installed
          and the agent's allow list names it. Each run shows in the device's Operation Logs.
        </Typography>
        <TextField
          select
          fullWidth
          label="Script"
          value={operationId}
          onChange={(event) => setOperationId(event.target.value)}
          helperText={scripts.data?.length === 0 ? 'The catalogue has no Script operation for this tenant.' : ' '}
          sx={{ mb: 2 }}
        >
          {(scripts.data ?? []).map((row) => (
            <MenuItem key={row.operationId} value={row.operationId}>
              {row.name}
              {row.package ? ` (${row.package.name})` : ''}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          fullWidth
          label="Timeout (seconds)"
          value={timeoutText}
          onChange={(event) => setTimeoutText(event.target.value)}
          error={badTimeout}
          helperText={
            badTimeout
              ? `A whole number from 1 to ${SCRIPT_LIMITS.timeoutSecondsMax}.`
              : `Empty: the operation's own, or ${SCRIPT_LIMITS.timeoutSeconds / 60} minutes.`
          }
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!operationId || badTimeout || run.isPending}
          onClick={() => void submit()}
        >
          Run
        </Button>
      </DialogActions>
    </Dialog>
  );
}
