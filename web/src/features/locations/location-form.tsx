import type { z } from 'zod';
import { locationInputSchema } from '@cfs/contracts/locations';
import { FormActions } from '../../components/form-actions';
import { FormTenantField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { useSaveLocation, type Location } from './api';

type Values = z.input<typeof locationInputSchema>;

const valuesOf = (location: Location | undefined, tenantId: string | null): Values => ({
  name: location?.name ?? '',
  tenantId: location ? location.tenantId : tenantId,
  address1: location?.address1 ?? '',
  address2: location?.address2 ?? '',
  city: location?.city ?? '',
  state: location?.state ?? '',
  country: location?.country ?? '',
  postalCode: location?.postalCode ?? '',
  coordinates: location?.coordinates ?? '',
});

export function LocationForm({
  id,
  location,
  tenantId,
  onSaved,
  onClose,
}: {
  id: string;
  location?: Location;
  tenantId: string | null;
  onSaved: (saved: Location) => void;
  onClose: () => void;
}) {
  const form = useSchemaForm(locationInputSchema, valuesOf(location, tenantId));
  const save = useSaveLocation(id);
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      {/* None: a location every tenant is offered, kept by users of all tenants. */}
      <FormTenantField control={form.control} name="tenantId" />
      <FormTextField control={form.control} name="address1" label="Address 1" />
      <FormTextField control={form.control} name="address2" label="Address 2" />
      <FormTextField control={form.control} name="city" label="City" />
      <FormTextField control={form.control} name="state" label="State" />
      <FormTextField control={form.control} name="country" label="Country" />
      <FormTextField control={form.control} name="postalCode" label="Postal Code" />
      <FormTextField control={form.control} name="coordinates" label="Coordinates" placeholder="47.6062, -122.3321" />
      <FormActions
        form={form}
        onSave={async (values) => {
          const saved = await save.mutateAsync(values);
          form.reset(valuesOf(saved, tenantId));
          onSaved(saved);
        }}
        onClose={onClose}
        loading={save.isPending}
      />
    </form>
  );
}
