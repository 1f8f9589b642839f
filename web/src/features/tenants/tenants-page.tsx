import { useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import EditIcon from '@mui/icons-material/Edit';
import PowerSettingsNewIcon from '@mui/icons-material/PowerSettingsNew';
import SubscriptionsIcon from '@mui/icons-material/Subscriptions';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { actionsColumn, dateTimeColumn, titleColumn } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { isGuid } from '@cfs/contracts/values/odata';
import { PageHeader } from '../../lib/page-header';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { TENANTS_PATH, useToggleTenant, type Tenant } from './api';
import { splitAssignmentGroups } from './tenant-form-values';

// The drawers and their forms load when first opened.
const TenantDrawer = lazyWhenOpened(
  () => import('./tenant-drawer'),
  (props) => props.id !== null,
);
const SubscriptionsDrawer = lazyWhenOpened(
  () => import('./subscriptions-drawer'),
  (props) => props.tenantId !== null,
);

/** Tenants (spec 001 §2): grid, create/edit drawer (`?editTenantId=`), subscriptions drawer, enable/disable. */
export default function TenantsPage() {
  const list = useListState({ defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  // The route already has a :tenantId segment; the drawer's parameter must not read like it.
  const drawer = useDrawerParam('editTenantId', { clear: ['tab'] });
  const subscriptions = useDrawerParam('subscriptionsTenantId', { clear: ['subscriptionId'] });
  const [toggling, setToggling] = useState<Tenant | null>(null);
  const toggle = useToggleTenant();

  const columns: GridColDef<Tenant>[] = [
    titleColumn<Tenant>({ field: 'name', headerName: 'Name', flex: 1, minWidth: 150 }, drawer, (row) => row.tenantId),
    { field: 'internalNotificationEmailAddress', headerName: 'Internal Notification Email', flex: 1, minWidth: 190 },
    { field: 'enabled', headerName: 'Enabled', type: 'boolean', width: 100 },
    {
      field: 'assignmentGroups',
      headerName: 'Assignment Groups',
      flex: 1.5,
      minWidth: 170,
      renderCell: ({ row }) => (
        <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', height: '100%', overflow: 'hidden' }}>
          {splitAssignmentGroups(row.assignmentGroups).map((group) => (
            <Chip key={group} label={group} size="small" />
          ))}
        </Box>
      ),
    },
    dateTimeColumn<Tenant>({ field: 'modified', headerName: 'Modified' }),
    actionsColumn<Tenant>(
      (row) => [
        { label: 'Edit', icon: <EditIcon fontSize="small" />, onClick: () => drawer.open(row.tenantId) },
        {
          label: 'Subscriptions',
          icon: <SubscriptionsIcon fontSize="small" />,
          onClick: () => subscriptions.open(row.tenantId),
        },
        {
          label: row.enabled ? 'Disable' : 'Enable',
          icon: <PowerSettingsNewIcon fontSize="small" />,
          color: row.enabled ? 'error' : 'primary',
          onClick: () => setToggling(row),
        },
      ],
      { width: 120 },
    ),
  ];

  return (
    <>
      <PageHeader title="Tenants" />
      <ResourceGrid
        list={list}
        path={TENANTS_PATH}
        columns={columns}
        essentialColumns={['name', 'enabled', ACTIONS_FIELD]}
        columnsToggle
        getRowId={(row) => row.tenantId}
        searchFields={['name', 'internalNotificationEmailAddress', 'assignmentGroups']}
        exportFileName="tenants.csv"
        onCreate={() => drawer.open('new')}
        onRowClick={(row) => drawer.open(row.tenantId)}
      />
      <TenantDrawer
        id={drawer.openId}
        onClose={drawer.close}
        onCreated={(tenantId) => drawer.open(tenantId, { replace: true })}
      />
      {/* The drawer writes the id into its list filter: only a GUID from the address reaches it. */}
      <SubscriptionsDrawer
        tenantId={isGuid(subscriptions.openId) ? subscriptions.openId : null}
        onClose={subscriptions.close}
      />
      <ConfirmDialog
        open={toggling !== null}
        title={toggling?.enabled ? 'Disable Tenant' : 'Enable Tenant'}
        text={`Are you sure you want to ${toggling?.enabled ? 'disable' : 'enable'} the tenant "${toggling?.name ?? ''}"?`}
        onConfirm={() => (toggling ? toggle.mutateAsync(toggling.tenantId).then(() => setToggling(null)) : undefined)}
        onCancel={() => setToggling(null)}
      />
    </>
  );
}
