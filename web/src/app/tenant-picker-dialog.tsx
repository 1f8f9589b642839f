import { Controller } from 'react-hook-form';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTenantPickerForm } from './use-tenant-picker-form';

/** The tenant > subscription form, in its own chunk: the form library loads when the picker first opens. */
export default function TenantPickerDialog({ onClose }: { onClose: () => void }) {
  const { form, tenants, subscriptions, loading, saving, changeTenant, submit } = useTenantPickerForm();
  const { isDirty } = form.formState;
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="tenant-picker-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="tenant-picker-title">Tenant &gt; Subscription</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          <Controller
            control={form.control}
            name="tenant"
            render={({ field, fieldState }) => (
              <TextField
                select
                required
                label="Tenant"
                value={loading ? '' : field.value}
                onChange={(event) => changeTenant(event.target.value)}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message}
                disabled={loading}
              >
                {tenants.map((tenant) => (
                  <MenuItem key={tenant.tenantId} value={tenant.tenantId}>
                    {tenant.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={form.control}
            name="subscriptionId"
            render={({ field, fieldState }) => (
              <TextField
                select
                required
                label="Subscription"
                value={loading ? '' : field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message}
                disabled={loading}
              >
                {subscriptions.map((subscription) => (
                  <MenuItem key={subscription.subscriptionId} value={subscription.subscriptionId}>
                    {subscription.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          {/* Save is disabled while the form is pristine or saving (spec 000 §5). */}
          <Button type="submit" variant="contained" disabled={!isDirty || saving || loading}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
