import { useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import DeleteIcon from '@mui/icons-material/Delete';
import UpgradeIcon from '@mui/icons-material/Upgrade';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { FLEET_LIMITS, FLEET_POLLING_MS } from '@cfs/contracts/fleet';
import { isBatchSizeAllowed, PENDING_DEVICE_MESSAGES } from '@cfs/contracts/pending-devices';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { dateTimeColumn } from '../../components/grid-columns';
import { ResourceGrid } from '../../components/resource-grid';
import { useRowSelection } from '../../components/row-selection';
import { dateTimeLiteral, guidLiteral, isGuid } from '@cfs/contracts/values/odata';
import { andFilters } from '../../lib/list-query';
import { PageHeader } from '../../lib/page-header';
import { useNow } from '../../lib/use-now';
import { useTenantId } from '../../lib/use-tenant-id';
import { useListState, useQueryParam } from '../../lib/url-state';
import { PENDING_DEVICES_PATH, useDeletePendingDevices, usePromotePendingDevices, type PendingDevice } from './api';

const MINUTE_MS = 60_000;

/**
 * Pending Devices (spec 002 §2): agents that enrolled in the route's tenant, promoted into the
 * current subscription or deleted in batches of fewer than 25, after confirmation (§4, §5).
 * `?inactive=show` lists those whose last ping is older than a day as well.
 */
export default function PendingDevicesPage() {
  const tenantId = useTenantId();
  const list = useListState({ defaults: { sort: [{ field: 'machineName', direction: 'asc' }] } });
  const selection = useRowSelection();
  const [inactive, setInactive] = useQueryParam('inactive');
  const showInactive = inactive === 'show';
  // The cut-off moves by the minute, so that the list's query (and its cache key) stays put between refreshes.
  const now = useNow();
  const cutoff = new Date(Math.floor(now / MINUTE_MS) * MINUTE_MS - FLEET_LIMITS.inactivePendingDeviceMs);
  const [asking, setAsking] = useState<'promote' | 'delete' | null>(null);
  const promote = usePromotePendingDevices();
  const remove = useDeletePendingDevices();

  const count = selection.ids.length;
  const allowed = isBatchSizeAllowed(count);
  const tooMany = count >= FLEET_LIMITS.batchSelectionBelow;
  const ids = selection.ids.map(String);

  const columns: GridColDef<PendingDevice>[] = [
    { field: 'machineName', headerName: 'Machine Name', flex: 1, minWidth: 160 },
    { field: 'operatingSystem', headerName: 'Operating System', flex: 1, minWidth: 160 },
    { field: 'architecture', headerName: 'Architecture', width: 130 },
    { field: 'ipAddress', headerName: 'IP Address', width: 150 },
    dateTimeColumn<PendingDevice>({ field: 'created', headerName: 'Created' }),
    dateTimeColumn<PendingDevice>({ field: 'lastPing', headerName: 'Last Ping' }),
  ];

  const batchButton = (label: string, icon: ReactNode, which: 'promote' | 'delete', color: 'primary' | 'error') => (
    <Tooltip title={tooMany ? PENDING_DEVICE_MESSAGES.tooManySelected : ''}>
      {/* A disabled button sends no events: the span carries the tooltip. */}
      <span>
        <Button
          size="small"
          variant="contained"
          color={color}
          startIcon={icon}
          disabled={!allowed}
          onClick={() => setAsking(which)}
        >
          {label}
        </Button>
      </span>
    </Tooltip>
  );

  return (
    <>
      <PageHeader title="Pending Devices" />
      <ResourceGrid
        list={list}
        path={PENDING_DEVICES_PATH}
        fixedFilter={andFilters(
          isGuid(tenantId) ? `tenantId eq ${guidLiteral(tenantId)}` : undefined,
          showInactive ? undefined : `lastPing gt ${dateTimeLiteral(cutoff)}`,
        )}
        enabled={isGuid(tenantId)}
        columns={columns}
        essentialColumns={['machineName', 'lastPing']}
        columnsToggle
        getRowId={(row) => row.pendingDeviceId}
        searchFields={['machineName', 'operatingSystem', 'architecture', 'ipAddress']}
        exportFileName="pendingdevices.csv"
        refetchInterval={FLEET_POLLING_MS.pendingDevices}
        bulk={{ selection, idField: 'pendingDeviceId', actions: [] }}
        toolbarActions={
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            {batchButton('Promote', <UpgradeIcon />, 'promote', 'primary')}
            {batchButton('Delete', <DeleteIcon />, 'delete', 'error')}
            <Button
              size="small"
              startIcon={showInactive ? <VisibilityOffIcon /> : <VisibilityIcon />}
              onClick={() => setInactive(showInactive ? null : 'show')}
            >
              {showInactive ? 'Hide Inactive Devices' : 'Show Inactive Devices'}
            </Button>
            {tooMany && (
              <Typography variant="body2" color="error" role="alert">
                {PENDING_DEVICE_MESSAGES.tooManySelected}
              </Typography>
            )}
          </Stack>
        }
      />
      <ConfirmDialog
        open={asking !== null}
        title={asking === 'promote' ? 'Promote Devices' : 'Delete Pending Devices'}
        text={
          asking === 'promote'
            ? PENDING_DEVICE_MESSAGES.promoteConfirm(count)
            : PENDING_DEVICE_MESSAGES.deleteConfirm(count)
        }
        onConfirm={() =>
          (asking === 'promote' ? promote : remove)
            .mutateAsync(ids)
            // A failure is toasted by the mutation; the selection stays for another try.
            .then(
              () => selection.clear(),
              () => undefined,
            )
            .finally(() => setAsking(null))
        }
        onCancel={() => setAsking(null)}
      />
    </>
  );
}
