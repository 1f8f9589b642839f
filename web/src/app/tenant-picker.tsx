import { lazy, Suspense, useState } from 'react';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Button from '@mui/material/Button';
import { useTenantContextLabel } from './use-tenant-context-label';

const TenantPickerDialog = lazy(() => import('./tenant-picker-dialog'));

/** Header button showing "Tenant > Subscription"; opens the form that changes the context. */
export function TenantPicker() {
  const label = useTenantContextLabel();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        color="inherit"
        endIcon={<ArrowDropDownIcon />}
        onClick={() => setOpen(true)}
        sx={{ maxWidth: 360 }}
        aria-label={`Tenant and subscription: ${label}`}
      >
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{label}</span>
      </Button>
      {/* Mounted only while open, so the subscriptions are fetched again each time (spec 000 §7). */}
      {open ? (
        <Suspense fallback={null}>
          <TenantPickerDialog onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
