import type { z } from 'zod';
import { locationInputSchema } from '@cfs/contracts/locations';
import { FormTenantField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { ItemFormActions, type ItemFormProps } from '../../components/item-form';
import { useSaveLocation, type Location } from './api';

type Values = z.input<typeof locationInputSchema>;

/** The form's values of a location, or of a new one in `tenantId`. */
const valuesOf = (location: Location | undefined, tenantId: string | null = null): Values => ({
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
}: ItemFormProps<Location> & { location?: Location }) {
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
      <ItemFormActions form={form} save={save} valuesOf={valuesOf} onSaved={onSaved} onClose={onClose} />
    </form>
  );
}
