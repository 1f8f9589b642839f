import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import AddIcon from '@mui/icons-material/Add';
import BlockIcon from '@mui/icons-material/Block';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ListAltIcon from '@mui/icons-material/ListAlt';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import StopIcon from '@mui/icons-material/Stop';
import { DEVICE_OPERATION_MESSAGES, FREQUENCY_LABELS, isQueued } from '@cfs/contracts/device-operations';
import { FLEET_POLLING_MS, FREQUENCY_TYPES } from '@cfs/contracts/fleet';
import { CellLink } from '../../components/cell-link';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { actionsColumn, browserColumn } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { ResourceGrid } from '../../components/resource-grid';
import { SideDrawer, useUnsavedChangesGuard } from '../../components/side-drawer';
import { guidLiteral } from '@cfs/contracts/values/odata';
import { useNow } from '../../lib/use-now';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { useDevice, type Device } from './api';
import { formatAge } from './device-display';
import {
  DEVICE_OPERATIONS_PATH,
  useDeleteDeviceOperation,
  useDisableDeviceOperation,
  useQueueDeviceOperation,
  type DeviceOperation,
  type Operation,
} from './device-operation-api';
import { DeviceOperationClone } from './device-operation-clone';
import { DeviceOperationForm } from './device-operation-form';
import { DeviceOperationLogs } from './device-operation-logs';
import { DeviceOperationPicker } from './device-operation-picker';

/** What the drawer shows: the device's operations, or one of the panels opened from them. */
type View =
  | { kind: 'list' }
  | { kind: 'pick' }
  | { kind: 'form'; row: DeviceOperation | null; operation: Operation }
  | { kind: 'logs'; row: DeviceOperation }
  | { kind: 'clone' };

/**
 * Device Operations (spec 002 §2 Devices), opened by `?deviceOperationsId={deviceId}`: the
 * device's operations (refreshed every 10 s), the Add Operation picker, the Create/Edit Device
 * Operation form, Operation Logs and Clone Device Operations.
 */
export default function DeviceOperationsDrawer() {
  const drawer = useDrawerParam('deviceOperationsId');
  const device = useDevice(drawer.openId);
  return (
    <SideDrawer
      open={drawer.openId !== null}
      onClose={drawer.close}
      width="75vw"
      title={`Device Operations${device.data ? `: ${device.data.name}` : ''}`}
    >
      {device.isError && <Typography color="text.secondary">This device does not exist.</Typography>}
      {device.data && <DeviceOperationsContent key={device.data.deviceId} device={device.data} />}
    </SideDrawer>
  );
}

function DeviceOperationsContent({ device }: { device: Device }) {
  const [view, setView] = useState<View>({ kind: 'list' });
  const guard = useUnsavedChangesGuard();
  const back = () => guard.confirmThen(() => setView({ kind: 'list' }));
  switch (view.kind) {
    case 'pick':
      return (
        <DeviceOperationPicker
          device={device}
          onPick={(operation) => setView({ kind: 'form', row: null, operation })}
          onBack={back}
        />
      );
    case 'form':
      return (
        <DeviceOperationForm
          device={device}
          row={view.row}
          operation={view.operation}
          onDone={() => setView({ kind: 'list' })}
          onBack={back}
        />
      );
    case 'logs':
      return <DeviceOperationLogs row={view.row} onBack={back} />;
    case 'clone':
      return <DeviceOperationClone device={device} onDone={() => setView({ kind: 'list' })} onBack={back} />;
    default:
      return <DeviceOperationsGrid device={device} onOpen={setView} />;
  }
}

function StatusChip({ row }: { row: DeviceOperation }) {
  if (isQueued(row)) return <Chip size="small" color="warning" label={DEVICE_OPERATION_MESSAGES.queued} />;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={row.enabled ? 'success' : 'default'}
      label={row.enabled ? 'Enabled' : 'Disabled'}
    />
  );
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function DeviceOperationsGrid({ device, onOpen }: { device: Device; onOpen: (view: View) => void }) {
  const list = useListState({ storage: 'memory', defaults: { sort: [{ field: 'label', direction: 'asc' }] } });
  const [showDisabled, setShowDisabled] = useState(false);
  const deleting = useItemQuestion<DeviceOperation>();
  const disable = useDisableDeviceOperation();
  const queue = useQueueDeviceOperation();
  const remove = useDeleteDeviceOperation();
  const now = useNow();
  const edit = (row: DeviceOperation) => row.operation && onOpen({ kind: 'form', row, operation: row.operation });

  const columns: GridColDef<DeviceOperation>[] = [
    {
      field: 'label',
      headerName: 'Label',
      flex: 1,
      minWidth: 150,
      renderCell: ({ row }) => <CellLink onClick={() => edit(row)}>{row.label}</CellLink>,
    },
    {
      field: 'operation',
      headerName: 'Operation',
      flex: 1,
      minWidth: 130,
      valueGetter: (_value, row) => row.operation?.name ?? '',
    },
    {
      field: 'frequencyTypeId',
      headerName: 'Frequency',
      width: 150,
      type: 'singleSelect',
      valueOptions: Object.entries(FREQUENCY_LABELS).map(([value, label]) => ({ value: Number(value), label })),
    },
    { field: 'interval', headerName: 'Interval', width: 100 },
    browserColumn<DeviceOperation>({
      field: 'status',
      headerName: 'Status',
      width: 110,
      renderCell: ({ row }) => <StatusChip row={row} />,
    }),
    browserColumn<DeviceOperation>({
      field: 'packetInfo',
      headerName: 'Last Result',
      flex: 1,
      minWidth: 150,
      renderCell: ({ row }) =>
        row.packetInfo ? (
          <span>
            {formatValue(row.packetInfo.value)}{' '}
            <Typography component="span" variant="caption" color="text.secondary">
              {formatAge(row.packetInfo.age, now)}
            </Typography>
          </span>
        ) : (
          <Typography component="span" variant="body2" color="text.secondary">
            N/A
          </Typography>
        ),
    }),
    actionsColumn<DeviceOperation>(
      (row) => {
        const onDemand = row.frequencyTypeId === FREQUENCY_TYPES.OnDemand;
        const queued = isQueued(row);
        return [
          { label: 'Edit Operation', icon: <EditIcon fontSize="small" />, onClick: () => edit(row) },
          queued
            ? {
                label: 'Dequeue',
                icon: <StopIcon fontSize="small" />,
                onClick: () => void queue.mutateAsync({ row, queued: false }).catch(() => undefined),
              }
            : {
                label: 'Enqueue',
                icon: <PlayArrowIcon fontSize="small" />,
                disabled: !onDemand || !row.enabled,
                onClick: () => void queue.mutateAsync({ row, queued: true }).catch(() => undefined),
              },
          {
            label: 'Operation Logs',
            icon: <ListAltIcon fontSize="small" />,
            onClick: () => onOpen({ kind: 'logs', row }),
          },
          {
            label: 'Disable Operation',
            icon: <BlockIcon fontSize="small" />,
            disabled: !row.enabled,
            onClick: () => void disable.mutateAsync(row).catch(() => undefined),
          },
          {
            label: 'Delete Operation',
            icon: <DeleteIcon fontSize="small" />,
            color: 'error',
            onClick: () => deleting.ask(row),
          },
        ];
      },
      { width: 210 },
    ),
  ];

  return (
    <Box>
      <ResourceGrid
        list={list}
        path={DEVICE_OPERATIONS_PATH}
        expand="operation($expand=package)"
        fixedFilter={`deviceId eq ${guidLiteral(device.deviceId)} and isDeleted eq false${showDisabled ? '' : ' and enabled eq true'}`}
        columns={columns}
        essentialColumns={['label', 'status', ACTIONS_FIELD]}
        getRowId={(row) => row.deviceOperationId}
        fields={{ operation: { path: 'operation/name' } }}
        searchFields={['label']}
        refetchInterval={FLEET_POLLING_MS.deviceOperations}
        toolbarActions={
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => onOpen({ kind: 'pick' })}>
              Add Operation
            </Button>
            <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => onOpen({ kind: 'clone' })}>
              Clone Operations
            </Button>
            <FormControlLabel
              control={
                <Switch
                  size="small"
                  checked={showDisabled}
                  onChange={(event) => setShowDisabled(event.target.checked)}
                />
              }
              label="Show Disabled"
            />
          </Box>
        }
        onRowClick={edit}
      />
      <ItemConfirmDialog
        question={deleting}
        title={(operation) => `Delete Operation: ${operation.label}`}
        text={DEVICE_OPERATION_MESSAGES.deleteConfirm}
        onConfirm={(operation) => remove.mutateAsync(operation)}
      />
    </Box>
  );
}
