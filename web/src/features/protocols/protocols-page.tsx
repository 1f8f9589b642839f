import type { GridColDef } from '@mui/x-data-grid';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ListAltIcon from '@mui/icons-material/ListAlt';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { actionsColumn, sharedTenantColumn, titleColumn } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { isGuid } from '@cfs/contracts/values/odata';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { PROTOCOLS_PATH, useDeleteProtocol, type Protocol } from './api';

// The drawers and their forms load when first opened.
const ProtocolDrawer = lazyWhenOpened(
  () => import('./protocol-drawer'),
  (props) => props.id !== null,
);
const ProtocolActionsDrawer = lazyWhenOpened(
  () => import('./protocol-actions-drawer'),
  (props) => props.id !== null,
);

/** Work Unit Protocols (spec 002 §2 Protocols): `?protocolId=&tab=` opens a protocol, `?protocolActionsId=` its actions. */
export default function ProtocolsPage() {
  const tenantId = useTenantId();
  const list = useListState({ defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const editor = useDrawerParam('protocolId', { clear: ['tab'] });
  const steps = useDrawerParam('protocolActionsId', { clear: ['protocolActionId'] });
  const deleting = useItemQuestion<Protocol>();
  const remove = useDeleteProtocol();

  const columns: GridColDef<Protocol>[] = [
    titleColumn<Protocol>(
      { field: 'name', headerName: 'Name', flex: 1, minWidth: 160 },
      editor,
      (row) => row.protocolId,
    ),
    { field: 'protocolId', headerName: 'ID', type: 'number', width: 90 },
    { field: 'description', headerName: 'Description', flex: 1.5, minWidth: 160 },
    sharedTenantColumn<Protocol>({ flex: 0.8, minWidth: 120 }),
    actionsColumn<Protocol>(
      (row) => [
        { label: 'Edit Protocol', icon: <EditIcon fontSize="small" />, onClick: () => editor.open(row.protocolId) },
        {
          label: 'View Protocol Actions',
          icon: <ListAltIcon fontSize="small" />,
          onClick: () => steps.open(row.protocolId),
        },
        {
          label: 'Delete Protocol',
          icon: <DeleteIcon fontSize="small" />,
          color: 'error',
          onClick: () => deleting.ask(row),
        },
      ],
      { width: 130 },
    ),
  ];

  return (
    <>
      <PageHeader title="Work Unit Protocols" />
      <ResourceGrid
        list={list}
        path={PROTOCOLS_PATH}
        expand="tenant"
        columns={columns}
        essentialColumns={['name', ACTIONS_FIELD]}
        getRowId={(row) => row.protocolId}
        fields={{ tenant: { path: 'tenant/name' }, protocolId: { kind: 'number' } }}
        searchFields={[{ path: 'protocolId', kind: 'number' }, 'name', 'description']}
        exportFileName="protocols.csv"
        onCreate={() => editor.open('new')}
        onRowClick={(row) => editor.open(row.protocolId)}
      />
      <ProtocolDrawer
        id={editor.openId}
        tenantId={isGuid(tenantId) ? tenantId : null}
        onCreated={(saved) => editor.open(saved.protocolId, { replace: true })}
        onClose={editor.close}
      />
      <ProtocolActionsDrawer id={steps.openId} onClose={steps.close} />
      <ItemConfirmDialog
        question={deleting}
        title="Delete Protocol"
        text={(protocol) =>
          `Are you sure you want to delete the protocol "${protocol.name}"? Its protocol actions are deleted with it; its work units keep existing without a protocol.`
        }
        onConfirm={(protocol) => remove.mutateAsync(protocol)}
      />
    </>
  );
}
