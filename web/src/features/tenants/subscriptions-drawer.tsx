import { useState } from 'react';
import { useForm } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { subscriptionInputSchema, type SubscriptionInput } from '@cfs/contracts/tenants';
import { CellLink } from '../../components/cell-link';
import { FormActions } from '../../components/form-actions';
import { FormTextField } from '../../components/form-fields';
import { schemaResolver } from '../../components/form-resolver';
import { dateTimeColumn } from '../../components/grid-columns';
import { ResourceGrid } from '../../components/resource-grid';
import { useInlineEditor } from '../../components/inline-editor';
import { SideDrawer, useUnsavedChangesGuard } from '../../components/side-drawer';
import { ApiError } from '../../lib/api-client';
import { isGuid } from '../../lib/ids';
import { guidLiteral } from '../../lib/list-query';
import { useListState } from '../../lib/url-state';
import { SUBSCRIPTIONS_PATH, useSaveSubscription, useTenant, type Subscription } from './api';

/**
 * The Subscriptions drawer of one tenant (spec 001 §2 Tenants): list, create, edit.
 * `?subscriptionsTenantId=`; an id from the address that is no GUID names no tenant.
 */
export function SubscriptionsDrawer({ tenantId, onClose }: { tenantId: string | null; onClose: () => void }) {
  const validId = isGuid(tenantId) ? tenantId : null;
  const tenant = useTenant(validId);
  const missing = (tenantId !== null && validId === null) || (tenant.error instanceof ApiError && tenant.error.status === 404);
  return (
    <SideDrawer open={tenantId !== null} onClose={onClose} title={`Subscriptions${tenant.data ? `: ${tenant.data.name}` : ''}`}>
      {missing && <Typography color="text.secondary">This tenant does not exist.</Typography>}
      {validId !== null && !missing && <TenantSubscriptions key={validId} tenantId={validId} />}
    </SideDrawer>
  );
}

function TenantSubscriptions({ tenantId }: { tenantId: string }) {
  // A grid in a drawer keeps its state in memory: the page's own list owns the address.
  const list = useListState({ storage: 'memory', defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const editor = useInlineEditor<Subscription>((row) => row.subscriptionId);
  const columns: GridColDef<Subscription>[] = [
    { field: 'name', headerName: 'Name', flex: 1, renderCell: ({ row }) => <CellLink onClick={() => editor.open(row)}>{row.name}</CellLink> },
    dateTimeColumn<Subscription>({ field: 'modified', headerName: 'Modified' }),
  ];
  return (
    <>
      {editor.editing !== null && (
        <SubscriptionForm
          key={editor.key}
          tenantId={tenantId}
          subscription={editor.item}
          onClose={editor.close}
        />
      )}
      <ResourceGrid
        list={list}
        path={SUBSCRIPTIONS_PATH}
        fixedFilter={`tenantId eq ${guidLiteral(tenantId)}`}
        columns={columns}
        getRowId={(row) => row.subscriptionId}
        searchFields={['name']}
        onCreate={() => editor.open('new')}
        onRowClick={editor.open}
      />
    </>
  );
}


function SubscriptionForm({ tenantId, subscription, onClose }: { tenantId: string; subscription?: Subscription; onClose: () => void }) {
  const form = useForm<SubscriptionInput>({
    resolver: schemaResolver(subscriptionInputSchema),
    defaultValues: { tenantId, name: subscription?.name ?? '' },
  });
  const [id, setId] = useState(subscription?.subscriptionId ?? 'new');
  const save = useSaveSubscription(id);
  const guard = useUnsavedChangesGuard();
  return (
    <Paper variant="outlined" component="form" noValidate onSubmit={(event) => event.preventDefault()} sx={{ p: 2, mb: 2 }} aria-label="Subscription">
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {id === 'new' ? 'Create Subscription' : 'Edit Subscription'}
        </Typography>
        <Button size="small" onClick={() => guard.confirmThen(onClose)}>
          Cancel
        </Button>
      </Box>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormActions
        form={form}
        onSave={async (input) => {
          const saved = await save.mutateAsync(input);
          // A second Save of a new subscription updates it rather than creating another.
          setId(saved.subscriptionId);
        }}
        onClose={onClose}
        loading={save.isPending}
      />
    </Paper>
  );
}
