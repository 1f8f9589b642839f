import { useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import DescriptionIcon from '@mui/icons-material/Description';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import PublicIcon from '@mui/icons-material/Public';
import {
  COMMUNICATION_PAGE_SIZE,
  COMMUNICATION_STATUSES,
  COMMUNICATION_STATUS_LABELS,
} from '@cfs/contracts/communications';
import { usePermissions } from '../../auth/session-data';
import { actionsColumn, titleColumn } from '../../components/grid-columns';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { formatShortDateTime } from '../../lib/dates';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { COMMUNICATIONS_EXPAND, COMMUNICATIONS_PATH, useNotifyInternal, type Communication } from './api';
import { CommunicationFilterBar } from './communication-filter-bar';
import { COMMUNICATION_FIELDS, DEFAULT_SORT, SEARCH_FIELDS } from './communication-filters';
import type { ReportKind } from './communication-report-dialog';

// The drawer and the reports load when first opened: the grid paints without the form and pickers.
const CommunicationDrawer = lazyWhenOpened(
  () => import('./communication-drawer'),
  (props) => props.openId !== null,
);
const CommunicationReportDialog = lazyWhenOpened(
  () => import('./communication-report-dialog'),
  (props) => props.open !== null,
);

/** A date-time column in the communications' display format 'h:mma, ddd, M/D/YYYY' (spec 001 §9). */
function dateColumn(
  field: 'created' | 'nextUpdate',
  headerName: string,
  overdueBadge = false,
): GridColDef<Communication> {
  return {
    field,
    headerName,
    type: 'dateTime',
    width: field === 'nextUpdate' ? 270 : 190,
    // The Overdue badge is what the list is watched for: the grid never leaves it out for want of room.
    ...(overdueBadge ? { hideable: false } : {}),
    valueGetter: (value: unknown) => (typeof value === 'string' ? new Date(value) : null),
    valueFormatter: (value: unknown) => (value instanceof Date ? formatShortDateTime(value) : ''),
    renderCell: ({ row, formattedValue }) => (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, height: '100%' }}>
        {/* First, so that it shows even when the column is narrowed. */}
        {overdueBadge && row.isOverdue && <Chip size="small" color="error" label="Overdue" />}
        <span>{String(formattedValue ?? '')}</span>
      </Box>
    ),
  };
}

/** Work Unit Communications (spec 001 §2), at /{tenantId}/workunitcommunications. */
export default function CommunicationsPage() {
  const tenantId = useTenantId();
  const permissions = usePermissions();
  const list = useListState({ defaults: { pageSize: COMMUNICATION_PAGE_SIZE, sort: [...DEFAULT_SORT] } });
  const drawer = useDrawerParam('publicWuCommId', { clear: ['tab'] });
  const [report, setReport] = useState<{ publicId: number; kind: ReportKind } | null>(null);
  const notify = useNotifyInternal();
  const canEdit = permissions.has('WorkUnitCommunications', 'edit');

  const columns: GridColDef<Communication>[] = [
    titleColumn<Communication>(
      {
        field: 'publicWorkUnitCommunicationId',
        headerName: 'WUCOMM #',
        type: 'number',
        width: 100,
        align: 'left',
        headerAlign: 'left',
      },
      drawer,
      (row) => row.publicWorkUnitCommunicationId,
    ),
    titleColumn<Communication>(
      { field: 'title', headerName: 'Title', flex: 1, minWidth: 200 },
      drawer,
      (row) => row.publicWorkUnitCommunicationId,
    ),
    // Next to the title, so that the row's actions show without scrolling sideways.
    actionsColumn<Communication>(
      (row) => [
        {
          label: 'Notify Internal',
          icon: <NotificationsActiveIcon fontSize="small" />,
          onClick: () => notify.mutate(row.workUnitCommunicationId),
          disabled: notify.isPending || !canEdit,
        },
        {
          label: 'External Report',
          icon: <PublicIcon fontSize="small" />,
          onClick: () => setReport({ publicId: row.publicWorkUnitCommunicationId, kind: 'external' }),
        },
        {
          label: 'Internal Report',
          icon: <DescriptionIcon fontSize="small" />,
          onClick: () => setReport({ publicId: row.publicWorkUnitCommunicationId, kind: 'internal' }),
        },
      ],
      { width: 140 },
    ),
    { field: 'tenant', headerName: 'Tenant', width: 120, valueGetter: (_value, row) => row.tenant?.name ?? '' },
    {
      field: 'status',
      headerName: 'Status',
      type: 'singleSelect',
      width: 160,
      valueOptions: COMMUNICATION_STATUSES.map((status) => ({
        value: status,
        label: COMMUNICATION_STATUS_LABELS[status],
      })),
      valueFormatter: (value: unknown) =>
        COMMUNICATION_STATUS_LABELS[value as keyof typeof COMMUNICATION_STATUS_LABELS] ?? 'unknown',
    },
    { field: 'serviceManager', headerName: 'Service Manager', width: 160 },
    { field: 'currentImpact', headerName: 'Current Impact', flex: 1, minWidth: 140 },
    dateColumn('nextUpdate', 'Next Update', true),
    dateColumn('created', 'Created'),
  ];

  const openPublicId = drawer.openId !== null && drawer.openId !== 'new' ? drawer.openId : null;
  return (
    <>
      <PageHeader
        title="Work Unit Communications"
        documentTitle={openPublicId ? `WUCOMM #${openPublicId}` : undefined}
      />
      <CommunicationFilterBar filters={list.state.filters} onChange={list.setFilters} />
      <ResourceGrid
        list={list}
        path={COMMUNICATIONS_PATH}
        expand={COMMUNICATIONS_EXPAND}
        columns={columns}
        essentialColumns={['publicWorkUnitCommunicationId', 'title', 'status']}
        getRowId={(row) => row.workUnitCommunicationId}
        fields={COMMUNICATION_FIELDS}
        searchFields={SEARCH_FIELDS}
        exportFileName="workunitcommunications.csv"
        columnsToggle
        disableColumnFilter
        onCreate={permissions.has('WorkUnitCommunications', 'create') ? () => drawer.open('new') : undefined}
        onRowClick={(row) => drawer.open(row.publicWorkUnitCommunicationId)}
      />
      <CommunicationDrawer
        openId={drawer.openId}
        tenantId={tenantId}
        canEdit={canEdit}
        canCreate={permissions.has('WorkUnitCommunications', 'create')}
        canDelete={permissions.has('WorkUnitCommunications', 'delete')}
        onClose={drawer.close}
        onCreated={(saved) => drawer.open(saved.publicWorkUnitCommunicationId, { replace: true })}
      />
      <CommunicationReportDialog open={report} canPublish={canEdit} onClose={() => setReport(null)} />
    </>
  );
}
