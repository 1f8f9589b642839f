import { useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { ACTION_DEFINITION_TYPE_LABELS } from '@cfs/contracts/action-definitions';
import { actionsColumn, sharedTenantColumn, titleColumn } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { isGuid } from '@cfs/contracts/values/odata';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { ACTION_DEFINITIONS_PATH, type ActionDefinition } from './api';
import { isReadOnlyAction } from './action-definition-values';

// The drawers and their forms load when first opened.
const ActionDefinitionDrawer = lazyWhenOpened(
  () => import('./action-definition-drawer'),
  (props) => props.id !== null,
);
const ActionTestDrawer = lazyWhenOpened(
  () => import('./action-test-drawer'),
  (props) => props.action !== null,
);
const ActionDeleteDrawer = lazyWhenOpened(
  () => import('./action-delete-drawer'),
  (props) => props.action !== null,
);
const ActionHistoryDrawer = lazyWhenOpened(
  () => import('./action-history-drawer'),
  (props) => props.id !== null,
);

const TYPE_OPTIONS = Object.entries(ACTION_DEFINITION_TYPE_LABELS).map(([value, label]) => ({
  value: Number(value),
  label,
}));

/**
 * The action catalogue (spec 002 §2 Action catalogue): Name, Description, Type and Tenant, search
 * over name and description; `?actionDefinitionId=` opens Edit/Create, `?actionHistoryId=` an
 * action's history. Test and Delete open their drawers over the grid.
 */
export default function ActionCatalogPage() {
  const tenantId = useTenantId();
  const list = useListState({ defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const editor = useDrawerParam('actionDefinitionId');
  const history = useDrawerParam('actionHistoryId');
  const [testing, setTesting] = useState<ActionDefinition | null>(null);
  const [deleting, setDeleting] = useState<ActionDefinition | null>(null);

  const columns: GridColDef<ActionDefinition>[] = [
    titleColumn<ActionDefinition>(
      { field: 'name', headerName: 'Name', flex: 1, minWidth: 160 },
      editor,
      (row) => row.actionDefinitionId,
    ),
    { field: 'description', headerName: 'Description', flex: 1.5, minWidth: 180 },
    {
      field: 'actionDefinitionTypeId',
      headerName: 'Type',
      type: 'singleSelect',
      valueOptions: TYPE_OPTIONS,
      flex: 0.9,
      minWidth: 170,
      renderCell: ({ row }) =>
        ACTION_DEFINITION_TYPE_LABELS[row.actionDefinitionTypeId] ?? String(row.actionDefinitionTypeId),
    },
    sharedTenantColumn<ActionDefinition>({ flex: 0.7, minWidth: 120 }),
    actionsColumn<ActionDefinition>(
      (row) => [
        {
          label: isReadOnlyAction(row) ? 'View' : 'Edit',
          icon: <EditIcon fontSize="small" />,
          onClick: () => editor.open(row.actionDefinitionId),
        },
        { label: 'Test', icon: <PlayArrowIcon fontSize="small" />, onClick: () => setTesting(row) },
        {
          label: 'History',
          icon: <HistoryIcon fontSize="small" />,
          onClick: () => history.open(row.actionDefinitionId),
        },
        // Built-in actions are never deleted (spec 002 §3).
        {
          label: 'Delete',
          icon: <DeleteIcon fontSize="small" />,
          color: 'error',
          disabled: isReadOnlyAction(row),
          onClick: () => setDeleting(row),
        },
      ],
      { width: 170 },
    ),
  ];

  return (
    <>
      <PageHeader title="Action Catalog" />
      <ResourceGrid
        list={list}
        path={ACTION_DEFINITIONS_PATH}
        expand="tenant"
        columns={columns}
        essentialColumns={['name', ACTIONS_FIELD]}
        getRowId={(row) => row.actionDefinitionId}
        fields={{ tenant: { path: 'tenant/name' }, actionDefinitionTypeId: { kind: 'enum' } }}
        searchFields={['name', 'description']}
        onCreate={() => editor.open('new')}
        onRowClick={(row) => editor.open(row.actionDefinitionId)}
      />
      <ActionDefinitionDrawer
        id={editor.openId}
        tenantId={isGuid(tenantId) ? tenantId : null}
        onCreated={(saved) => editor.open(saved.actionDefinitionId, { replace: true })}
        onClose={editor.close}
      />
      <ActionTestDrawer action={testing} onClose={() => setTesting(null)} />
      <ActionDeleteDrawer action={deleting} onClose={() => setDeleting(null)} />
      <ActionHistoryDrawer id={history.openId} onClose={history.close} />
    </>
  );
}
