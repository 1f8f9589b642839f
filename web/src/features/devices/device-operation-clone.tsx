import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { DEVICE_OPERATION_MESSAGES } from '@cfs/contracts/device-operations';
import { listQueryOptions } from '../../lib/list-api';
import { guidLiteral } from '@cfs/contracts/values/odata';
import { DEVICES_PATH, type Device } from './api';
import { DEVICE_OPERATIONS_PATH, useCloneDeviceOperations, type DeviceOperation } from './device-operation-api';

/** Enough for any one device's operations and a tenant's choice of target devices. */
const CLONE_LIST_SIZE = 100;

/**
 * Clone Device Operations (spec 002 §5): a target device of the same tenant, never the source,
 * and at least one operation; every operation starts chosen.
 */
export function DeviceOperationClone({
  device,
  onDone,
  onBack,
}: {
  device: Device;
  onDone: () => void;
  onBack: () => void;
}) {
  const operations = useQuery(
    listQueryOptions<DeviceOperation>(
      DEVICE_OPERATIONS_PATH,
      {
        pageSize: CLONE_LIST_SIZE,
        sort: [{ field: 'label', direction: 'asc' }],
      },
      { fixedFilter: `deviceId eq ${guidLiteral(device.deviceId)} and isDeleted eq false` },
    ),
  );
  const targets = useQuery(
    listQueryOptions<Device>(
      DEVICES_PATH,
      {
        pageSize: CLONE_LIST_SIZE,
        sort: [{ field: 'name', direction: 'asc' }],
      },
      { fixedFilter: `tenantId eq ${guidLiteral(device.tenantId)} and deviceId ne ${guidLiteral(device.deviceId)}` },
    ),
  );
  const [target, setTarget] = useState('');
  // Unchecked ids: every operation starts chosen, also those that arrive after the first render.
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  const clone = useCloneDeviceOperations();
  const rows = operations.data?.rows ?? [];
  const chosen = rows.filter((row) => !unchecked.has(row.deviceOperationId)).map((row) => row.deviceOperationId);
  const targetError = tried && target === '' ? DEVICE_OPERATION_MESSAGES.cloneTargetRequired : undefined;
  const operationsError = tried && chosen.length === 0 ? DEVICE_OPERATION_MESSAGES.cloneOperationsRequired : undefined;

  const toggle = (id: string, checked: boolean) => {
    const next = new Set(unchecked);
    if (checked) next.delete(id);
    else next.add(id);
    setUnchecked(next);
  };
  const submit = () => {
    setTried(true);
    if (target === '' || chosen.length === 0) return;
    void clone
      .mutateAsync({ fromDeviceId: device.deviceId, toDeviceId: target, deviceOperationIdsToClone: chosen.join(',') })
      .then(onDone)
      .catch(() => undefined);
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
        <Button startIcon={<ArrowBackIcon />} onClick={onBack}>
          Back to Operations
        </Button>
        <Typography variant="h6" component="h3">
          Clone Device Operations
        </Typography>
      </Box>
      {(operations.isPending || targets.isPending) && <LinearProgress />}
      <TextField
        select
        fullWidth
        required
        label="Target Device"
        value={target}
        onChange={(event) => setTarget(event.target.value)}
        error={targetError !== undefined}
        helperText={targetError ?? `Copies the chosen operations of ${device.name} to this device.`}
        sx={{ mb: 2, maxWidth: 480 }}
      >
        {(targets.data?.rows ?? []).map((row) => (
          <MenuItem key={row.deviceId} value={row.deviceId}>
            {row.name}
          </MenuItem>
        ))}
      </TextField>
      <FormControl component="fieldset" error={operationsError !== undefined} sx={{ display: 'block', mb: 2 }}>
        <FormLabel component="legend">Operations</FormLabel>
        <FormGroup>
          {rows.map((row) => (
            <FormControlLabel
              key={row.deviceOperationId}
              control={
                <Checkbox
                  checked={!unchecked.has(row.deviceOperationId)}
                  onChange={(event) => toggle(row.deviceOperationId, event.target.checked)}
                />
              }
              label={`${row.label}${row.enabled ? '' : ' (disabled)'}`}
            />
          ))}
        </FormGroup>
        {operations.isSuccess && rows.length === 0 && (
          <Typography color="text.secondary">This device has no operations.</Typography>
        )}
        {operationsError && <FormHelperText>{operationsError}</FormHelperText>}
      </FormControl>
      <Button variant="contained" onClick={submit} disabled={clone.isPending}>
        Clone
      </Button>
    </Box>
  );
}
