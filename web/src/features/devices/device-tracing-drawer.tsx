import { useState } from 'react';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { TRACE_OPTIONS } from '@cfs/contracts/fleet';
import { SideDrawer, useReportUnsavedChanges } from '../../components/side-drawer';
import { formatDateTime } from '../../lib/dates';
import { useNow } from '../../lib/use-now';
import { useDevice, useToggleTrace, type Device } from './api';

/** Tracing (`?traceDeviceId=`): one of the spec's options (§9); the server sets the expiration. */
export default function DeviceTracingDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const device = useDevice(id);
  return (
    <SideDrawer open={id !== null} onClose={onClose} title={`Tracing${device.data ? `: ${device.data.name}` : ''}`}>
      {device.isPending && id !== null && <LinearProgress />}
      {device.data && <TracingForm key={device.data.deviceId} device={device.data} />}
    </SideDrawer>
  );
}

function TracingForm({ device }: { device: Device }) {
  const [minutes, setMinutes] = useState<number>(-1);
  const toggle = useToggleTrace(device.deviceId);
  useReportUnsavedChanges(minutes !== -1);
  const now = useNow();
  const tracing = device.traceExpiration !== null && new Date(device.traceExpiration).getTime() > now;
  return (
    <>
      <Typography sx={{ mb: 1 }}>
        {tracing && device.traceExpiration
          ? `Tracing until ${formatDateTime(device.traceExpiration)}.`
          : 'Tracing is disabled.'}
      </Typography>
      <RadioGroup
        aria-label="Tracing"
        value={String(minutes)}
        onChange={(event) => setMinutes(Number(event.target.value))}
      >
        {TRACE_OPTIONS.map((option) => (
          <FormControlLabel
            key={option.minutes}
            value={String(option.minutes)}
            control={<Radio />}
            label={option.label}
          />
        ))}
      </RadioGroup>
      <Button
        variant="contained"
        sx={{ mt: 2 }}
        disabled={toggle.isPending}
        onClick={() =>
          // The drawer stays open on the answer: it shows until when the device now traces.
          void toggle.mutateAsync(minutes).then(
            () => setMinutes(-1),
            () => undefined,
          )
        }
      >
        Save
      </Button>
    </>
  );
}
