import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { SCRIPT_LIMITS } from '@cfs/contracts/agent';
import { DateWithAge } from '../../components/date-with-age';
import { useScriptRuns, type ScriptRun } from './device-operation-api';

function Outcome({ run }: { run: ScriptRun }) {
  if (run.refused !== null) return <Chip size="small" color="warning" label="Refused by the device" />;
  if (run.timedOut) return <Chip size="small" color="error" label="Ended by its timeout" />;
  return (
    <Chip size="small" color={run.exitCode === 0 ? 'success' : 'error'} label={`Exit code ${run.exitCode ?? '?'}`} />
  );
}

function Stream({ label, text }: { label: string; text: string }) {
  if (text === '') return null;
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Box
        component="pre"
        aria-label={label}
        sx={{
          m: 0,
          p: 1,
          maxHeight: 240,
          overflow: 'auto',
          bgcolor: 'action.hover',
          fontSize: '0.8rem',
          whiteSpace: 'pre-wrap',
        }}
      >
        {text}
      </Box>
    </Box>
  );
}

/**
 * A Script operation's runs, newest first, as its agent reported them: how each ended (its exit
 * code, its timeout, or the device's refusal and why), when and for how long it ran, and its output
 * and errors as the agent cut them. Read again when the operation's logs are (`refreshedAt`).
 */
export function DeviceScriptRuns({
  deviceOperationId,
  refetchInterval,
  refreshedAt,
}: {
  deviceOperationId: string;
  refetchInterval: number | false;
  refreshedAt: number;
}) {
  const runs = useScriptRuns(deviceOperationId, refetchInterval);
  const { refetch } = runs;
  useEffect(() => {
    if (refreshedAt > 0) void refetch();
  }, [refreshedAt, refetch]);
  return (
    <Box component="section" aria-label="Script runs" sx={{ mb: 3 }}>
      <Typography variant="subtitle1" component="h4" sx={{ mb: 1 }}>
        Script Runs
      </Typography>
      {runs.data?.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          The script has not run yet: enqueue it, or wait for its schedule.
        </Typography>
      ) : null}
      {runs.data?.map((run) => (
        <Paper
          key={run.scriptRunId}
          variant="outlined"
          sx={{ p: 1.5, mb: 1 }}
          aria-label={`Script run ${run.scriptRunId}`}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Outcome run={run} />
            <DateWithAge value={run.started} />
            <Typography variant="body2" color="text.secondary">
              {(run.durationMs / 1000).toFixed(1)} s
            </Typography>
          </Box>
          {run.refused !== null ? (
            <Typography variant="body2" sx={{ mt: 1 }}>
              {run.refused}
            </Typography>
          ) : null}
          <Stream label="Output" text={run.stdout} />
          <Stream label="Errors" text={run.stderr} />
          {run.truncated ? (
            <Typography variant="caption" color="text.secondary">
              The output was cut at {SCRIPT_LIMITS.outputBytes / 1024} KiB a stream.
            </Typography>
          ) : null}
        </Paper>
      ))}
    </Box>
  );
}
