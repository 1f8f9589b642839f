import type { z } from 'zod';
import { packageInputSchema } from '@cfs/contracts/packages';
import { CheckboxGroupField, FormSelectField, FormTenantField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { ItemFormActions, type ItemFormProps } from '../../components/item-form';
import { useSavePackage, type Package } from './api';
import { EXECUTABLE_TYPE_OPTIONS, OPERATING_SYSTEM_OPTIONS, PACKAGE_TYPE_OPTIONS } from './package-labels';

type Values = z.input<typeof packageInputSchema>;

/** The form's values of a package, or of a new one in `tenantId`. */
const valuesOf = (pkg: Package | undefined, tenantId: string | null = null): Values => ({
  name: pkg?.name ?? '',
  tenantId: pkg ? pkg.tenantId : tenantId,
  description: pkg?.description ?? '',
  // No type chosen yet on create: the choice is required.
  packageTypeId: pkg?.packageTypeId ?? (undefined as unknown as number),
  executableName: pkg?.executableName ?? '',
  executableTypeId: pkg?.executableTypeId ?? null,
  referenceUrl: pkg?.referenceUrl ?? '',
  operatingSystemRidsId: pkg?.operatingSystemRidsId ?? [],
  // Kept as they are: the package's own parameter definitions are not edited here.
  parameterDefinitions: (pkg?.parameterDefinitions ?? []) as Values['parameterDefinitions'],
});

export function PackageForm({ id, pkg, tenantId, onSaved, onClose }: ItemFormProps<Package> & { pkg?: Package }) {
  const form = useSchemaForm(packageInputSchema, valuesOf(pkg, tenantId));
  const save = useSavePackage(id);
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      {/* None: installation-wide, offered to every tenant, kept by users of all tenants. */}
      <FormTenantField control={form.control} name="tenantId" />
      <FormTextField control={form.control} name="description" label="Description" multiline minRows={2} />
      <FormSelectField
        control={form.control}
        name="packageTypeId"
        label="Package Type"
        options={PACKAGE_TYPE_OPTIONS}
        required
      />
      <FormTextField control={form.control} name="executableName" label="Executable Name" />
      <FormSelectField
        control={form.control}
        name="executableTypeId"
        label="Executable Type"
        options={EXECUTABLE_TYPE_OPTIONS}
        emptyLabel="None"
      />
      <FormTextField control={form.control} name="referenceUrl" label="Reference URL" />
      <CheckboxGroupField
        control={form.control}
        name="operatingSystemRidsId"
        label="Supported Operating Systems"
        options={OPERATING_SYSTEM_OPTIONS}
        row
      />
      <ItemFormActions form={form} save={save} valuesOf={valuesOf} onSaved={onSaved} onClose={onClose} />
    </form>
  );
}
