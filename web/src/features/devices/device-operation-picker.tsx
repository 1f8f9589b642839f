import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { FLEET_POLLING_MS, INSTALL_STATUSES, OPERATION_TYPES, OPERATION_TYPE_PERMISSIONS } from '@cfs/contracts/fleet';
import { usePermissions } from '../../auth/session-data';
import { CellLink } from '../../components/cell-link';
import { ResourceGrid } from '../../components/resource-grid';
import { guidLiteral, MATCH_NOTHING } from '@cfs/contracts/values/odata';
import { useListState } from '../../lib/url-state';
import { useDeviceInstallations, type Device } from './api';
import { availableOperationsPath, type AvailableOperation, type Operation } from './device-operation-api';

const TYPE_OPTIONS = Object.entries(OPERATION_TYPES).map(([label, value]) => ({ value, label }));

/** The packages the device has installed: an operation of any other has nothing on the device to run. */
function useInstalledPackageFilter(deviceId: string): string | undefined {
  const installations = useDeviceInstallations(deviceId).data;
  if (!installations) return undefined;
  const ids = installations
    .filter((row) => row.installedPackageVersionId !== null || row.installStatus === INSTALL_STATUSES.Installed)
    .map((row) => row.installPackage.packageId);
  return ids.length > 0 ? `packageId in (${ids.map(guidLiteral).join(',')})` : MATCH_NOTHING;
}

/**
 * Add Operation: the operations of the packages installed on the device (of those its tenant can
 * use that run on its operating system), refreshed every 30 s; choosing one opens the Create
 * Device Operation form.
 */
export function DeviceOperationPicker({
  device,
  onPick,
  onBack,
}: {
  device: Device;
  onPick: (operation: Operation) => void;
  onBack: () => void;
}) {
  const list = useListState({ storage: 'memory', defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  // Read File needs Devices.HostAccess and Script Devices.Scripts (the server refuses them with 403): shown, not offered.
  const permissions = usePermissions();
  const offered = (row: AvailableOperation) => {
    const needed = OPERATION_TYPE_PERMISSIONS[row.operationType];
    return needed === undefined || permissions.allows(needed);
  };
  const pick = (row: AvailableOperation) => offered(row) && onPick(row);
  const installedOnly = useInstalledPackageFilter(device.deviceId);
  const columns: GridColDef<AvailableOperation>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      minWidth: 150,
      renderCell: ({ row }) =>
        offered(row) ? (
          <CellLink onClick={() => onPick(row)}>{row.name}</CellLink>
        ) : (
          `${row.name} (administrators only)`
        ),
    },
    {
      field: 'package',
      headerName: 'Package',
      flex: 1,
      minWidth: 140,
      valueGetter: (_value, row) => row.package?.name ?? '',
    },
    { field: 'description', headerName: 'Description', flex: 2, minWidth: 200 },
    { field: 'operationType', headerName: 'Type', width: 140, type: 'singleSelect', valueOptions: TYPE_OPTIONS },
  ];
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        <Button startIcon={<ArrowBackIcon />} onClick={onBack}>
          Back to Operations
        </Button>
        <Typography variant="h6" component="h3">
          Add Operation
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        The operations of the packages installed on this device.
      </Typography>
      <ResourceGrid
        list={list}
        path={availableOperationsPath(device.tenantId, device.operatingSystemId)}
        expand="package"
        columns={columns}
        essentialColumns={['name', 'package']}
        getRowId={(row) => row.operationId}
        fields={{ package: { path: 'package/name' } }}
        searchFields={['name', 'description']}
        fixedFilter={installedOnly}
        enabled={installedOnly !== undefined}
        refetchInterval={FLEET_POLLING_MS.availableOperations}
        onRowClick={pick}
      />
    </Box>
  );
}
