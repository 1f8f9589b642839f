import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { resolutionCenterRequestSchema } from '@cfs/contracts/work-units';
import { FormActions } from '../../components/form-actions';
import { FormSelectField, FormTextField, type FieldOption } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { useCreateRequest, useResolutionCenterCategories, type ResolutionCenterUnit } from './api';

type Values = z.input<typeof resolutionCenterRequestSchema>;

const DESCRIPTION_MAX = 4000;

/** Create Request (spec 001 §2, §5): title, description with its counter, phone, and optional Service and Need. */
export function RequestForm({
  tenantId,
  onCreated,
}: {
  tenantId: string;
  onCreated: (created: ResolutionCenterUnit) => void;
}) {
  const defaults: Values = {
    tenantId,
    title: '',
    description: '',
    stakeHolderPhoneNumber: '',
    workUnitCategoryId: null,
    workUnitSubcategoryId: null,
  };
  const form = useSchemaForm(resolutionCenterRequestSchema, defaults);
  const create = useCreateRequest();
  const categories = useResolutionCenterCategories(tenantId).data ?? [];
  const description = useWatch({ control: form.control, name: 'description' }) ?? '';
  const categoryId = useWatch({ control: form.control, name: 'workUnitCategoryId' });
  const services: FieldOption[] = categories.map((category) => ({
    value: category.workUnitCategoryId,
    label: category.name,
  }));
  const needs: FieldOption[] = (
    categories.find((category) => category.workUnitCategoryId === categoryId)?.subcategories ?? []
  ).map((sub) => ({ value: sub.workUnitSubcategoryId, label: sub.name }));
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FormTextField control={form.control} name="title" label="Title" required autoFocus />
      <FormTextField
        control={form.control}
        name="description"
        label="Description"
        required
        multiline
        minRows={4}
        helperText={`${description.length}/${DESCRIPTION_MAX}`}
        slotProps={{ htmlInput: { maxLength: DESCRIPTION_MAX } }}
      />
      <FormTextField control={form.control} name="stakeHolderPhoneNumber" label="Phone Number" required type="tel" />
      <FormSelectField
        control={form.control}
        name="workUnitCategoryId"
        label="Service"
        options={services}
        emptyLabel="None"
        onValueChange={() => form.setValue('workUnitSubcategoryId', null, { shouldDirty: true })}
      />
      <FormSelectField
        control={form.control}
        name="workUnitSubcategoryId"
        label="Need"
        options={needs}
        emptyLabel="None"
        disabled={needs.length === 0}
      />
      <FormActions
        form={form}
        saveLabel="Submit"
        onSave={async (values) => {
          const created = await create.mutateAsync(values);
          form.reset(defaults);
          onCreated(created);
        }}
        loading={create.isPending}
      />
    </form>
  );
}
