import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { AuditHistoryButton } from '../../components/audit-history';
import { SideDrawer } from '../../components/side-drawer';
import { ApiError } from '../../lib/api-client';
import { useTenant } from './api';
import { TenantForm } from './tenant-form';

export default function TenantDrawer({
  id,
  onClose,
  onCreated,
}: {
  id: string | null;
  onClose: () => void;
  onCreated: (tenantId: string) => void;
}) {
  const tenant = useTenant(id);
  const creating = id === 'new';
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      title={creating ? 'Create Tenant' : `Edit Tenant${tenant.data ? `: ${tenant.data.name}` : ''}`}
      headerActions={tenant.data && <AuditHistoryButton entityType="tenant" entityId={tenant.data.tenantId} />}
    >
      {id !== null && !creating && tenant.isPending && <LinearProgress />}
      {id !== null && !creating && tenant.isError && (
        <Typography color="text.secondary">
          {tenant.error instanceof ApiError && tenant.error.status === 404
            ? 'This tenant does not exist.'
            : 'This tenant could not be loaded.'}
        </Typography>
      )}
      {id !== null && (creating || tenant.data) && (
        <TenantForm key={id} id={id} tenant={tenant.data} onClose={onClose} onCreated={onCreated} />
      )}
    </SideDrawer>
  );
}
