import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ListResponse } from '@cfs/contracts/api';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { subscriptionInputSchema } from '@cfs/contracts/tenants';
import { CellLink } from '../../components/cell-link';
import { ItemFormActions } from '../../components/item-form';
import { FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { dateTimeColumn } from '../../components/grid-columns';
import { ResourceGrid } from '../../components/resource-grid';
import { InlineFormCard, useInlineEditor } from '../../components/inline-editor';
import { SideDrawer } from '../../components/side-drawer';
import { ApiError, apiGet } from '../../lib/api-client';
import { guidLiteral, isGuid } from '@cfs/contracts/values/odata';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { SUBSCRIPTIONS_PATH, useSaveSubscription, useTenant, type Subscription } from './api';

/**
 * The Subscriptions drawer of one tenant (spec 001 §2 Tenants): list, create, edit.
 * `?subscriptionsTenantId=`; an id from the address that is no GUID names no tenant. The open
 * subscription is `&subscriptionId=`, so a subscription's title is a link (a new tab opens it).
 */
export default function SubscriptionsDrawer({ tenantId, onClose }: { tenantId: string | null; onClose: () => void }) {
  const validId = isGuid(tenantId) ? tenantId : null;
  const tenant = useTenant(validId);
  const missing =
    (tenantId !== null && validId === null) || (tenant.error instanceof ApiError && tenant.error.status === 404);
  return (
    <SideDrawer
      open={tenantId !== null}
      onClose={onClose}
      title={`Subscriptions${tenant.data ? `: ${tenant.data.name}` : ''}`}
    >
      {missing && <Typography color="text.secondary">This tenant does not exist.</Typography>}
      {validId !== null && !missing && <TenantSubscriptions key={validId} tenantId={validId} />}
    </SideDrawer>
  );
}

function TenantSubscriptions({ tenantId }: { tenantId: string }) {
  // A grid in a drawer keeps its state in memory: the page's own list owns the address.
  const list = useListState({ storage: 'memory', defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const editor = useInlineEditor<Subscription>((row) => row.subscriptionId);
  const linked = useDrawerParam('subscriptionId');
  const linkedId = isGuid(linked.openId) ? linked.openId : null;
  // The subscription the address names, when a link opened this drawer: its form opens once it is read.
  const named = useQuery({
    queryKey: [SUBSCRIPTIONS_PATH, 'named', tenantId, linkedId],
    enabled: linkedId !== null,
    queryFn: async () =>
      (
        await apiGet<ListResponse<Subscription>>(
          `${SUBSCRIPTIONS_PATH}?$filter=${encodeURIComponent(`tenantId eq ${guidLiteral(tenantId)} and subscriptionId eq ${guidLiteral(linkedId ?? '')}`)}&$top=1`,
        )
      ).value[0] ?? null,
  });
  const { open } = editor;
  const openedFromAddress = useRef<string | null>(null);
  useEffect(() => {
    // Once per subscription the address names: what the user opens afterwards is theirs to choose.
    if (!named.data || openedFromAddress.current === named.data.subscriptionId) return;
    openedFromAddress.current = named.data.subscriptionId;
    open(named.data);
  }, [named.data, open]);
  // The address follows the form only once it has opened: kept unsaved changes keep their address too.
  const openRow = (row: Subscription) =>
    editor.open(row, undefined, () => linked.open(row.subscriptionId, { replace: true }));
  const close = () => {
    editor.close();
    linked.close();
  };
  const columns: GridColDef<Subscription>[] = [
    {
      field: 'name',
      headerName: 'Name',
      flex: 1,
      renderCell: ({ row }) => (
        <CellLink href={linked.href(row.subscriptionId)} onClick={() => openRow(row)}>
          {row.name}
        </CellLink>
      ),
    },
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
          onClose={close}
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
        onCreate={() => editor.open('new', undefined, linked.close)}
        onRowClick={openRow}
      />
    </>
  );
}

function SubscriptionForm({
  tenantId,
  subscription,
  onSaved,
  onClose,
}: {
  tenantId: string;
  subscription?: Subscription;
  onSaved: (saved: Subscription) => void;
  onClose: () => void;
}) {
  const form = useSchemaForm(subscriptionInputSchema, { tenantId, name: subscription?.name ?? '' });
  const save = useSaveSubscription(subscription?.subscriptionId ?? 'new');
  return (
    <InlineFormCard
      label="Subscription"
      title={subscription ? 'Edit Subscription' : 'Create Subscription'}
      onCancel={onClose}
    >
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <ItemFormActions form={form} save={save} onSaved={onSaved} onClose={onClose} />
    </InlineFormCard>
  );
}
