import Chip from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import { RESOLUTION_CENTER_PAGE_SIZE } from '@cfs/contracts/constants';
import { RESOLUTION_CENTER_MESSAGES, resolutionCenterStatus } from '@cfs/contracts/values/work-units';
import { dateTimeColumn, titleColumn } from '../../components/grid-columns';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { useDocumentTitle } from '../../lib/document-title';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { RESOLUTION_CENTER_PATH, type ResolutionCenterUnit } from './api';

const RequestDrawer = lazyWhenOpened(
  () => import('./request-drawers'),
  (props) => props.id !== null,
);

/** Someone who has filed nothing is told so, with the form's own name on the button that opens it. */
const EMPTY_LIST = { message: RESOLUTION_CENTER_MESSAGES.noRequests, createLabel: 'Create Request' };

/**
 * The Resolution Center (spec 001 §2): the tenant's incidents (an end user's own requests only),
 * newest first, 50 a page; `?workUnitId=` opens a request's details, Create Request files one.
 */
export default function ResolutionCenterPage() {
  // The header is the standalone layout's; the page names the document.
  useDocumentTitle('Resolution Center');
  const tenantId = useTenantId();
  const list = useListState({
    defaults: { pageSize: RESOLUTION_CENTER_PAGE_SIZE, sort: [{ field: 'created', direction: 'desc' }] },
  });
  const drawer = useDrawerParam('workUnitId');
  const columns: GridColDef<ResolutionCenterUnit>[] = [
    { field: 'workUnitId', headerName: 'ID', type: 'number', width: 90 },
    titleColumn<ResolutionCenterUnit>(
      { field: 'title', headerName: 'Title', flex: 2, minWidth: 220 },
      drawer,
      (row) => row.workUnitId,
    ),
    {
      field: 'stateId',
      headerName: 'Status',
      width: 120,
      valueGetter: (_value, row) => resolutionCenterStatus(row.stateId),
      renderCell: ({ row }) => {
        const status = resolutionCenterStatus(row.stateId);
        return (
          <Chip size="small" label={status} color={status === 'Done' ? 'success' : 'primary'} variant="outlined" />
        );
      },
    },
    dateTimeColumn<ResolutionCenterUnit>({ field: 'created', headerName: 'Created' }),
  ];
  return (
    <>
      <ResourceGrid
        list={list}
        path={RESOLUTION_CENTER_PATH}
        fixedFilter={tenantId ? `tenantId eq ${tenantId}` : undefined}
        enabled={tenantId !== ''}
        columns={columns}
        essentialColumns={['workUnitId', 'title', 'stateId']}
        getRowId={(row) => row.workUnitId}
        searchFields={['title', 'description']}
        onCreate={() => drawer.open('new')}
        emptyList={EMPTY_LIST}
        onRowClick={(row) => drawer.open(String(row.workUnitId))}
        disableColumnFilter
      />
      <RequestDrawer
        id={drawer.openId}
        tenantId={tenantId}
        onCreated={(created) => drawer.open(created.workUnitId, { replace: true })}
        onClose={drawer.close}
      />
    </>
  );
}
