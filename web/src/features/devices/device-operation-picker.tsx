import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { FLEET_POLLING_MS, OPERATION_TYPES } from '@cfs/contracts/fleet';
import { CellLink } from '../../components/cell-link';
import { ResourceGrid } from '../../components/resource-grid';
import { useListState } from '../../lib/url-state';
import type { Device } from './api';
import { availableOperationsPath, type AvailableOperation, type Operation } from './device-operation-api';

const TYPE_OPTIONS = Object.entries(OPERATION_TYPES).map(([label, value]) => ({ value, label }));

/**
 * Add Operation: the operations of the packages the device's tenant can use that run on its
 * operating system (refreshed every 30 s); choosing one opens the Create Device Operation form.
 */
export function DeviceOperationPicker({ device, onPick, onBack }: { device: Device; onPick: (operation: Operation) => void; onBack: () => void }) {
  const list = useListState({ storage: 'memory', defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const columns: GridColDef<AvailableOperation>[] = [
    { field: 'name', headerName: 'Name', flex: 1, minWidth: 150, renderCell: ({ row }) => <CellLink onClick={() => onPick(row)}>{row.name}</CellLink> },
    { field: 'package', headerName: 'Package', flex: 1, minWidth: 140, valueGetter: (_value, row) => row.package?.name ?? '' },
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
      <ResourceGrid
        list={list}
        path={availableOperationsPath(device.tenantId, device.operatingSystemId)}
        expand="package"
        columns={columns}
        essentialColumns={['name', 'package']}
        getRowId={(row) => row.operationId}
        fields={{ package: { path: 'package/name' } }}
        searchFields={['name', 'description']}
        refetchInterval={FLEET_POLLING_MS.availableOperations}
        onRowClick={onPick}
      />
    </Box>
  );
}
