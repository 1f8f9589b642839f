import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import { dateTimeColumn, titleColumn } from '../../components/grid-columns';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { deliveryStatus, OUTBOX_PATH, type OutboxEmail } from './api';

// The drawer loads when first opened.
const OutboxEmailDrawer = lazyWhenOpened(
  () => import('./outbox-email-drawer'),
  (props) => props.id !== null,
);

/** Outbox (Administration, Settings view): the emails of the caller's tenants, newest first; `?emailId=`. */
export default function OutboxPage() {
  const tenantId = useTenantId();
  const list = useListState({ defaults: { sort: [{ field: 'created', direction: 'desc' }] } });
  const drawer = useDrawerParam('emailId');
  const columns: GridColDef<OutboxEmail>[] = [
    dateTimeColumn<OutboxEmail>({ field: 'created', headerName: 'Created' }),
    titleColumn<OutboxEmail>(
      { field: 'subject', headerName: 'Subject', flex: 2, minWidth: 220 },
      drawer,
      (row) => row.emailId,
    ),
    { field: 'to', headerName: 'To', flex: 1.5, minWidth: 180 },
    { field: 'template', headerName: 'Template', width: 170 },
    {
      field: 'tenant',
      headerName: 'Tenant',
      flex: 1,
      minWidth: 130,
      valueGetter: (_value, row) => row.tenant?.name ?? '',
    },
    {
      field: 'transport',
      headerName: 'Status',
      width: 140,
      valueGetter: (_value, row) => deliveryStatus(row).label,
      renderCell: ({ row }) => {
        const status = deliveryStatus(row);
        return (
          <Chip
            size="small"
            label={status.label}
            color={status.color}
            variant={status.color === 'default' ? 'outlined' : 'filled'}
          />
        );
      },
    },
  ];
  return (
    <>
      <PageHeader title="Outbox" />
      <ResourceGrid
        list={list}
        path={OUTBOX_PATH}
        expand="tenant"
        tenantScope={tenantId}
        columns={columns}
        essentialColumns={['created', 'subject', 'transport']}
        columnsToggle
        getRowId={(row) => row.emailId}
        fields={{ tenant: { path: 'tenant/name' } }}
        searchFields={['subject', 'to']}
        exportFileName="outbox.csv"
        onRowClick={(row) => drawer.open(String(row.emailId))}
      />
      <OutboxEmailDrawer id={drawer.openId} onClose={drawer.close} />
    </>
  );
}
