import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { workUnitCategoryInputSchema } from '@cfs/contracts/work-unit-settings';
import { FormActions } from '../../components/form-actions';
import { FormCheckboxField, FormSelectField, FormTextField, type FieldOption } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { AuditHistoryButton } from '../../components/audit-history';
import { SideDrawer } from '../../components/side-drawer';
import { positiveIntId } from '../../lib/ids';
import { useTenantsLookup, useWorkUnitTypesLookup } from '../../lib/lookups';
import { useCategory, useSaveCategory, type WorkUnitCategory } from './api';

export interface CategoryDrawerProps {
  /** The address's `workUnitCategoryId`: a number, 'new', or null when closed; anything else is not found. */
  openId: string | null;
  /** A new category belongs to the page's tenant unless the user picks another. */
  routeTenantId: string;
  onClose: () => void;
  onCreated: (workUnitCategoryId: number) => void;
}

export default function CategoryDrawer({ openId, routeTenantId, onClose, onCreated }: CategoryDrawerProps) {
  const id = openId === 'new' ? 'new' : positiveIntId(openId);
  const category = useCategory(typeof id === 'number' ? id : null);
  const creating = id === 'new';
  const notFound = (openId !== null && id === null) || (category.isSuccess && category.data === null);
  return (
    <SideDrawer
      open={openId !== null}
      onClose={onClose}
      title={
        creating
          ? 'Create Category'
          : `Edit Category${category.data ? ` #${category.data.workUnitCategoryId}: ${category.data.name}` : ''}`
      }
      headerActions={
        category.data && (
          <AuditHistoryButton entityType="workUnitCategory" entityId={String(category.data.workUnitCategoryId)} />
        )
      }
    >
      {typeof id === 'number' && category.isPending && <LinearProgress />}
      {notFound && <Typography color="text.secondary">This category does not exist.</Typography>}
      {id !== null && (creating || category.data) && (
        <CategoryForm
          key={id}
          id={id}
          category={category.data ?? undefined}
          routeTenantId={routeTenantId}
          onClose={onClose}
          onCreated={onCreated}
        />
      )}
    </SideDrawer>
  );
}

function CategoryForm({
  id,
  category,
  routeTenantId,
  onClose,
  onCreated,
}: {
  id: number | 'new';
  category?: WorkUnitCategory;
  routeTenantId: string;
  onClose: () => void;
  onCreated: (workUnitCategoryId: number) => void;
}) {
  const form = useSchemaForm(
    workUnitCategoryInputSchema,
    category
      ? {
          name: category.name,
          tenantId: category.tenantId,
          workUnitTypeId: category.workUnitTypeId,
          isEnabled: category.isEnabled,
          isVisibleInResolutionCenter: category.isVisibleInResolutionCenter,
        }
      : // No type chosen yet: "Please choose a work unit type." until one is (spec 001 §5).
        {
          name: '',
          tenantId: routeTenantId,
          workUnitTypeId: undefined,
          isEnabled: true,
          isVisibleInResolutionCenter: false,
        },
  );
  const save = useSaveCategory(id);
  const tenants = useTenantsLookup();
  const types = useWorkUnitTypesLookup();

  const tenantOptions: FieldOption[] = (tenants.data ?? []).map((tenant) => ({
    value: tenant.tenantId,
    label: tenant.name,
  }));
  // A disabled tenant is not in the lookup; the category's own still shows.
  if (category?.tenant && !tenantOptions.some((option) => option.value === category.tenantId)) {
    tenantOptions.push({ value: category.tenantId, label: category.tenant.name });
  }
  const typeOptions: FieldOption[] = (types.data ?? []).map((type) => ({
    value: type.workUnitTypeId,
    label: type.name,
  }));
  if (category?.workUnitType && !typeOptions.some((option) => option.value === category.workUnitTypeId)) {
    typeOptions.push({ value: category.workUnitTypeId, label: category.workUnitType.name });
  }

  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus={id === 'new'} />
      <FormSelectField
        control={form.control}
        name="workUnitTypeId"
        label="Work Unit Type"
        options={typeOptions}
        required
        disabled={types.isPending}
      />
      <FormSelectField
        control={form.control}
        name="tenantId"
        label="Tenant"
        options={tenantOptions}
        required
        disabled={tenants.isPending}
      />
      <Box sx={{ display: 'flex', flexDirection: 'column' }}>
        <FormCheckboxField control={form.control} name="isEnabled" label="Enabled" />
        <FormCheckboxField
          control={form.control}
          name="isVisibleInResolutionCenter"
          label="Visible in Resolution Center"
        />
      </Box>
      <FormActions
        form={form}
        onSave={async (input) => {
          const saved = await save.mutateAsync(input);
          if (id === 'new') onCreated(saved.workUnitCategoryId);
        }}
        onClose={onClose}
        loading={save.isPending}
      />
    </form>
  );
}
