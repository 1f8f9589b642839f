import { useForm } from 'react-hook-form';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { subscriptionInputSchema, type SubscriptionInput } from '@cfs/contracts/tenants';
import { CellLink } from '../../components/cell-link';
import { FormActions } from '../../components/form-actions';
import { FormTextField } from '../../components/form-fields';
import { schemaResolver } from '../../components/form-resolver';
import { dateTimeColumn } from '../../components/grid-columns';
import { ResourceGrid } from '../../components/resource-grid';
import { InlineFormCard, useInlineEditor } from '../../components/inline-editor';
import { SideDrawer } from '../../components/side-drawer';
import { ApiError } from '../../lib/api-client';
import { isGuid } from '../../lib/ids';
import { guidLiteral } from '../../lib/list-query';
import { useListState } from '../../lib/url-state';
import { SUBSCRIPTIONS_PATH, useSaveSubscription, useTenant, type Subscription } from './api';

/**
 * The Subscriptions drawer of one tenant (spec 001 §2 Tenants): list, create, edit.
 * `?subscriptionsTenantId=`; an id from the address that is no GUID names no tenant.
 */
export default function SubscriptionsDrawer({ tenantId, onClose }: { tenantId: string | null; onClose: () => void }) {
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
          onSaved={editor.saved}
          onClose={editor.close}
        />
      )}
      <ResourceGrid
        list={list}
        path={SUBSCRIPTIONS_PATH}
        fixedFilter={`tenantId eq ${guidLiteral(tenantId)}`}
        columns={columns}
        essentialColumns={['name']}
        getRowId={(row) => row.subscriptionId}
        searchFields={['name']}
        onCreate={() => editor.open('new')}
        onRowClick={editor.open}
      />
    </>
  );
}


function SubscriptionForm({ tenantId, subscription, onSaved, onClose }: { tenantId: string; subscription?: Subscription; onSaved: (saved: Subscription) => void; onClose: () => void }) {
  const form = useForm<SubscriptionInput>({
    resolver: schemaResolver(subscriptionInputSchema),
    defaultValues: { tenantId, name: subscription?.name ?? '' },
  });
  const save = useSaveSubscription(subscription?.subscriptionId ?? 'new');
  return (
    <InlineFormCard label="Subscription" title={subscription ? 'Edit Subscription' : 'Create Subscription'} onCancel={onClose}>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormActions form={form} onSave={async (input) => onSaved(await save.mutateAsync(input))} onClose={onClose} loading={save.isPending} />
    </InlineFormCard>
  );
}
