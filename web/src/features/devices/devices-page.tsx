import { useState, type ReactElement } from 'react';
import { Link as RouterLink } from '../../lib/router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { GridColDef } from '@mui/x-data-grid';
import ComputerIcon from '@mui/icons-material/Computer';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import InventoryIcon from '@mui/icons-material/Inventory2';
import ListAltIcon from '@mui/icons-material/ListAlt';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SettingsSuggestIcon from '@mui/icons-material/SettingsSuggest';
import SensorsIcon from '@mui/icons-material/Sensors';
import BugReportIcon from '@mui/icons-material/BugReport';
import TerminalIcon from '@mui/icons-material/Terminal';
import UpgradeIcon from '@mui/icons-material/Upgrade';
import { DEVICE_MESSAGES } from '@cfs/contracts/devices';
import { FLEET_POLLING_MS } from '@cfs/contracts/fleet';
import { SCRIPTS_PERMISSION } from '@cfs/contracts/permissions';
import { usePermissions } from '../../auth/session-data';
import { BulkResultDialog, useBulkOutcome } from '../../components/bulk-result-dialog';
import { useRowSelection } from '../../components/row-selection';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { actionsColumn, titleColumn, type RowAction } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { guidFilterOperators } from '../../components/guid-filter';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { PageHeader } from '../../lib/page-header';
import { useNow } from '../../lib/use-now';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState, type DrawerParam } from '../../lib/url-state';
import { DEVICES_PATH, useDeleteDevice, useRestartAgent, type Device } from './api';
import { formatAge, formatPercent } from './device-display';
import { RunScriptDialog } from './run-script-dialog';

// Each drawer's code loads when it first opens: the grid paints without the forms behind it.
const DeviceDrawer = lazyWhenOpened(
  () => import('./device-drawer'),
  (props) => props.id !== null,
);
const TracingDrawer = lazyWhenOpened(
  () => import('./device-tracing-drawer'),
  (props) => props.id !== null,
);
const LogsDrawer = lazyWhenOpened(
  () => import('./device-logs-drawer'),
  (props) => props.id !== null,
);
const InstallationsDrawer = lazyWhenOpened(
  () => import('./device-installations-drawer'),
  (props) => props.id !== null,
);
const InventoryDrawer = lazyWhenOpened(
  () => import('./device-inventory-drawer'),
  (props) => props.id !== null,
);
const PacketsDrawer = lazyWhenOpened(
  () => import('./device-packets-drawer'),
  (props) => props.id !== null,
);
const DeviceOperationsDrawer = lazyWhenOpened(
  () => import('./device-operations-drawer'),
  (props: { open: boolean }) => props.open,
);

/** Devices (spec 002 §2): the fleet with its live values, refreshed every 30 s. */
export default function DevicesPage() {
  const tenantId = useTenantId();
  const list = useListState({ defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const edit = useDrawerParam('deviceId');
  const tracing = useDrawerParam('traceDeviceId');
  const logs = useDrawerParam('deviceLogsId');
  const installations = useDrawerParam('deviceInstallationsId');
  const packets = useDrawerParam('devicePacketsId');
  const inventory = useDrawerParam('deviceInventoryId');
  const operations = useDrawerParam('deviceOperationsId');
  const deleting = useItemQuestion<Device>();
  const remove = useDeleteDevice();
  const restart = useRestartAgent();
  const now = useNow();
  // Run Script on the checked devices: offered to holders of Devices.Scripts (the server checks it too).
  const canRunScripts = usePermissions().allows(SCRIPTS_PERMISSION);
  const selection = useRowSelection();
  const scriptOutcome = useBulkOutcome(selection, { one: 'device', many: 'devices' }, 'queued');
  const [runningScript, setRunningScript] = useState(false);
  const [scriptDeviceNames, setScriptDeviceNames] = useState<ReadonlyMap<string, string>>(new Map());

  const columns: GridColDef<Device>[] = [
    titleColumn<Device>({ field: 'name', headerName: 'Name', flex: 1, minWidth: 140 }, edit, (row) => row.deviceId),
    {
      field: 'cpuPercent',
      headerName: 'CPU %',
      type: 'number',
      width: 75,
      renderCell: ({ row }) => formatPercent(row.cpuPercent),
    },
    {
      field: 'memoryPercent',
      headerName: 'Memory %',
      type: 'number',
      width: 95,
      renderCell: ({ row }) => formatPercent(row.memoryPercent),
    },
    {
      field: 'packetTimestamp',
      headerName: 'Age',
      type: 'dateTime',
      width: 90,
      valueGetter: (value: string | null) => (value ? new Date(value) : null),
      renderCell: ({ row }) => formatAge(row.packetTimestamp, now),
    },
    // Online while the last contact is within two heartbeat intervals; Home's device figures link here filtered by it.
    { field: 'isOnline', headerName: 'Online', type: 'boolean', width: 95 },
    {
      field: 'location',
      headerName: 'Location',
      flex: 0.8,
      minWidth: 90,
      valueGetter: (_value, row) => row.location?.name ?? '',
    },
    {
      field: 'deviceId',
      headerName: 'Device ID',
      // Wide enough for the whole id on a wide screen; narrower ones cut it, and hovering shows it.
      flex: 1.2,
      minWidth: 110,
      filterOperators: [...guidFilterOperators],
      renderCell: ({ row }) => (
        <Box component="span" title={row.deviceId} sx={{ fontSize: '0.8rem' }}>
          {row.deviceId}
        </Box>
      ),
    },
    { field: 'enabled', headerName: 'Enabled', type: 'boolean', width: 75 },
    actionsColumn<Device>(
      (row) => {
        /** One of the row's less frequent panels, from its More Actions menu. */
        const fromMenu = (label: string, icon: ReactElement, panel: Pick<DrawerParam, 'open'>): RowAction => ({
          label,
          icon,
          onClick: () => panel.open(row.deviceId),
          inMenu: true,
        });
        return [
          { label: 'Edit Device', icon: <EditIcon fontSize="small" />, onClick: () => edit.open(row.deviceId) },
          {
            label: 'Operations',
            icon: <SettingsSuggestIcon fontSize="small" />,
            onClick: () => operations.open(row.deviceId),
          },
          { label: 'Logs', icon: <ListAltIcon fontSize="small" />, onClick: () => logs.open(row.deviceId) },
          // Restarting goes without a question, so it is a menu pick rather than a button beside Edit.
          {
            label: 'Restart Agent',
            icon: <RestartAltIcon fontSize="small" />,
            onClick: () => void restart.mutateAsync(row).catch(() => undefined),
            inMenu: true,
          },
          fromMenu('Toggle Tracing', <BugReportIcon fontSize="small" />, tracing),
          fromMenu('Installations', <InventoryIcon fontSize="small" />, installations),
          fromMenu('Packets', <SensorsIcon fontSize="small" />, packets),
          fromMenu('Inventory', <ComputerIcon fontSize="small" />, inventory),
          {
            label: 'Delete Device',
            icon: <DeleteIcon fontSize="small" />,
            color: 'error',
            onClick: () => deleting.ask(row),
            inMenu: true,
          },
        ];
      },
      // Three buttons and More Actions (at 1400 px nine buttons pushed the column past the grid's edge).
      { width: 140 },
    ),
  ];

  return (
    <>
      <PageHeader title="Devices" />
      <ResourceGrid
        list={list}
        path={DEVICES_PATH}
        expand="location"
        tenantScope={tenantId}
        columns={columns}
        essentialColumns={['name', 'cpuPercent', 'packetTimestamp', 'isOnline', 'enabled', ACTIONS_FIELD]}
        columnsToggle
        getRowId={(row) => row.deviceId}
        fields={{ location: { path: 'location/name' }, isOnline: { kind: 'boolean' } }}
        searchFields={['name']}
        exportFileName="devices.csv"
        refetchInterval={FLEET_POLLING_MS.devices}
        live="devices"
        toolbarActions={
          <Button component={RouterLink} to={`/${tenantId}/pendingdevices`} startIcon={<UpgradeIcon />}>
            Promote Pending Devices
          </Button>
        }
        onRowClick={(row) => edit.open(row.deviceId)}
        {...(canRunScripts
          ? {
              bulk: {
                selection,
                idField: 'deviceId',
                actions: [{ label: 'Run Script', icon: <TerminalIcon />, onClick: () => setRunningScript(true) }],
              },
            }
          : {})}
      />
      {runningScript ? (
        <RunScriptDialog
          tenantId={tenantId}
          deviceIds={selection.ids.map(String)}
          outcome={scriptOutcome}
          onNames={setScriptDeviceNames}
          onClose={() => setRunningScript(false)}
        />
      ) : null}
      <BulkResultDialog outcome={scriptOutcome} describe={(id) => scriptDeviceNames.get(String(id)) ?? String(id)} />
      <DeviceDrawer id={edit.openId} onClose={edit.close} />
      <TracingDrawer id={tracing.openId} onClose={tracing.close} />
      <LogsDrawer id={logs.openId} onClose={logs.close} />
      <InstallationsDrawer id={installations.openId} onClose={installations.close} />
      <PacketsDrawer id={packets.openId} onClose={packets.close} />
      <InventoryDrawer id={inventory.openId} onClose={inventory.close} />
      <DeviceOperationsDrawer open={operations.openId !== null} />
      <ItemConfirmDialog
        question={deleting}
        title="Delete Device"
        text={(device) => DEVICE_MESSAGES.deleteConfirm(device.name)}
        onConfirm={(device) => remove.mutateAsync(device)}
      />
    </>
  );
}
