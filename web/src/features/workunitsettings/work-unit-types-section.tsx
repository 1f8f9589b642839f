import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import EditIcon from '@mui/icons-material/Edit';
import { workUnitTypeInputSchema } from '@cfs/contracts/work-unit-settings';
import { FormActions } from '../../components/form-actions';
import { FormCheckboxField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { actionsColumn, titleColumn } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { ResourceGrid } from '../../components/resource-grid';
import { SideDrawer } from '../../components/side-drawer';
import { positiveIntId } from '../../lib/ids';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { useSaveWorkUnitType, useWorkUnitType, WORK_UNIT_TYPES_PATH, type WorkUnitType } from './api';

/**
 * The extra section of Work Unit Settings (spec 001 §2 leaves it unnamed; issue 3 makes it the
 * management of work unit types), shown only with WorkUnits.Types edit. Its grid state is `?types=`,
 * its drawer `?workUnitTypeId=`.
 */
export function WorkUnitTypesSection() {
  const list = useListState({ key: 'types', defaults: { sort: [{ field: 'workUnitTypeId', direction: 'asc' }] } });
  const drawer = useDrawerParam('workUnitTypeId');
  const columns: GridColDef<WorkUnitType>[] = [
    { field: 'workUnitTypeId', headerName: 'ID', type: 'number', width: 90, align: 'left', headerAlign: 'left' },
    titleColumn<WorkUnitType>({ field: 'name', headerName: 'Name', flex: 1 }, drawer, (row) => row.workUnitTypeId),
    { field: 'enabled', headerName: 'Enabled', type: 'boolean', width: 100 },
    actionsColumn<WorkUnitType>(
      (row) => [{ label: 'Edit', icon: <EditIcon fontSize="small" />, onClick: () => drawer.open(row.workUnitTypeId) }],
      { width: 90 },
    ),
  ];
  return (
    <Box component="section" aria-label="Work Unit Types" sx={{ mt: 4 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Work Unit Types
      </Typography>
      <ResourceGrid
        list={list}
        path={WORK_UNIT_TYPES_PATH}
        columns={columns}
        essentialColumns={['name', 'enabled', ACTIONS_FIELD]}
        getRowId={(row) => row.workUnitTypeId}
        searchFields={['name']}
        onCreate={() => drawer.open('new')}
        onRowClick={(row) => drawer.open(row.workUnitTypeId)}
      />
      <WorkUnitTypeDrawer
        openId={drawer.openId}
        onClose={drawer.close}
        onCreated={(id) => drawer.open(id, { replace: true })}
      />
    </Box>
  );
}

function WorkUnitTypeDrawer({
  openId,
  onClose,
  onCreated,
}: {
  openId: string | null;
  onClose: () => void;
  onCreated: (workUnitTypeId: number) => void;
}) {
  const id = openId === 'new' ? 'new' : positiveIntId(openId);
  const type = useWorkUnitType(typeof id === 'number' ? id : null);
  const notFound = (openId !== null && id === null) || (type.isSuccess && type.data === null);
  return (
    <SideDrawer
      open={openId !== null}
      onClose={onClose}
      title={id === 'new' ? 'Create Work Unit Type' : `Edit Work Unit Type${type.data ? `: ${type.data.name}` : ''}`}
    >
      {typeof id === 'number' && type.isPending && <LinearProgress />}
      {notFound && <Typography color="text.secondary">This work unit type does not exist.</Typography>}
      {id !== null && (id === 'new' || type.data) && (
        <WorkUnitTypeForm key={id} id={id} type={type.data ?? undefined} onClose={onClose} onCreated={onCreated} />
      )}
    </SideDrawer>
  );
}

function WorkUnitTypeForm({
  id,
  type,
  onClose,
  onCreated,
}: {
  id: number | 'new';
  type?: WorkUnitType;
  onClose: () => void;
  onCreated: (workUnitTypeId: number) => void;
}) {
  const form = useSchemaForm(workUnitTypeInputSchema, { name: type?.name ?? '', enabled: type?.enabled ?? true });
  const save = useSaveWorkUnitType(id);
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormCheckboxField control={form.control} name="enabled" label="Enabled" />
      <FormActions
        form={form}
        onSave={async (input) => {
          const saved = await save.mutateAsync(input);
          if (id === 'new') onCreated(saved.workUnitTypeId);
        }}
        onClose={onClose}
        loading={save.isPending}
      />
    </form>
  );
}
