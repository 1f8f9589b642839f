import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import Button from '@mui/material/Button';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  BLOCK_MESSAGES,
  BLOCK_TYPE_LABELS,
  CHOOSABLE_BLOCK_TYPES,
  blockFormSchema,
  blockUpdateSchema,
} from '@cfs/contracts/blocks';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { FormActions } from '../../components/form-actions';
import { ItemFormActions } from '../../components/item-form';
import { FormSelectField, FormSubscriptionField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { usePermissions } from '../../auth/session-data';
import { formatDateTime } from '../../lib/dates';
import { useSubscriptionOptions, useTenantOptions } from '../../lib/lookups';
import { useCreateBlock, useDeleteBlock, useUpdateBlock, type BlockRow } from './api';
import { FactList } from '../../components/fact-list';

/** The types a person may choose: deviceHeartbeat is the agents' own (spec 002 §5). */
const TYPE_OPTIONS = CHOOSABLE_BLOCK_TYPES.map((value) => ({
  value,
  label: BLOCK_TYPE_LABELS[value] ?? String(value),
}));

/**
 * A new block (spec 002 §5 Block): Block ID pre-filled with a new v4 GUID (the id of the entity
 * whose packets it shows; a script's entity id can be pasted instead), Name, Description, Type
 * (not deviceHeartbeat), Tenant and Subscription, all checked as the server checks them.
 */
export function BlockCreateForm({
  tenantId,
  onSaved,
  onClose,
}: {
  tenantId: string;
  onSaved: (block: BlockRow) => void;
  onClose: () => void;
}) {
  const form = useSchemaForm(blockFormSchema, {
    blockId: crypto.randomUUID(),
    name: '',
    description: '',
    tenantId,
    subscriptionId: '',
    blockTypeId: undefined,
  });
  const chosenTenant = useWatch({ control: form.control, name: 'tenantId' });
  const tenants = useTenantOptions();
  const create = useCreateBlock();
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()} aria-label="Create block">
      <FormTextField
        control={form.control}
        name="blockId"
        label="Block ID"
        required
        helperText="The id of the entity whose packets the block shows"
      />
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormTextField control={form.control} name="description" label="Description" multiline minRows={2} />
      <FormSelectField control={form.control} name="blockTypeId" label="Type" options={TYPE_OPTIONS} required />
      <FormSelectField
        control={form.control}
        name="tenantId"
        label="Tenant"
        options={tenants}
        required
        onValueChange={() => form.setValue('subscriptionId', '', { shouldDirty: true })}
      />
      <FormSubscriptionField control={form.control} name="subscriptionId" tenantId={chosenTenant} required />
      <ItemFormActions form={form} save={create} onSaved={onSaved} onClose={onClose} />
    </form>
  );
}

/** An existing block: only its name and description change (spec 002 §4); Delete asks first (§8). */
export function BlockEditForm({ block, onClose }: { block: BlockRow; onClose: () => void }) {
  const form = useSchemaForm(blockUpdateSchema, { name: block.name, description: block.description ?? '' });
  const update = useUpdateBlock(block.blockId);
  const remove = useDeleteBlock();
  const permissions = usePermissions();
  const [deleting, setDeleting] = useState(false);
  const tenants = useTenantOptions();
  const subscriptions = useSubscriptionOptions(block.tenantId);
  const tenantName = tenants.find((tenant) => tenant.value === block.tenantId)?.label ?? block.tenantId;
  const subscriptionName =
    subscriptions.find((subscription) => subscription.value === block.subscriptionId)?.label ?? block.subscriptionId;
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()} aria-label="Edit block">
      <FactList wrap="break-all">
        <dt>Block ID</dt>
        <dd>
          {block.blockId} <CopyButton text={block.blockId} label="Copy Block ID" />
        </dd>
        <dt>Type</dt>
        <dd>{BLOCK_TYPE_LABELS[block.blockTypeId] ?? block.blockTypeId}</dd>
        <dt>Tenant</dt>
        <dd>{tenantName}</dd>
        <dt>Subscription</dt>
        <dd>{subscriptionName}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(block.created)}</dd>
        <dt>Modified</dt>
        <dd>{formatDateTime(block.modified)}</dd>
      </FactList>
      <FormTextField control={form.control} name="name" label="Name" required />
      <FormTextField control={form.control} name="description" label="Description" multiline minRows={2} />
      <FormActions
        form={form}
        onSave={(values) => update.mutateAsync(values)}
        onClose={onClose}
        loading={update.isPending}
        leading={
          permissions.has('Blocks', 'delete') && (
            <Button color="error" startIcon={<DeleteIcon />} onClick={() => setDeleting(true)}>
              Delete
            </Button>
          )
        }
      />
      <ConfirmDialog
        open={deleting}
        title="Delete Block"
        text={BLOCK_MESSAGES.deleteConfirm}
        onConfirm={async () => {
          try {
            await remove.mutateAsync(block.blockId);
          } catch {
            // Toasted by the mutation ('A problem occured deleting the block. Please try again.').
            setDeleting(false);
            return;
          }
          setDeleting(false);
          // The block is gone: nothing of it is left to save, so the drawer closes without asking.
          form.reset(form.getValues());
          onClose();
        }}
        onCancel={() => setDeleting(false)}
      />
    </form>
  );
}
