import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { usePermissions } from '../../auth/session-data';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDateTime } from '../../lib/dates';
import { useTenantsLookup } from '../../lib/lookups';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useQueryParam } from '../../lib/url-state';
import { useResetServiceLevels, useSaveServiceLevels, useServiceLevels, type ServiceLevelsAnswer } from './api';
import { ServiceLevelsForm } from './service-levels-form';
import { inputOf } from './service-levels-form-values';

/** `?levels=installation`: the installation's levels; otherwise those of the tenant in the path. */
const INSTALLATION = 'installation';
const TENANT = 'tenant';

/**
 * Service Levels (docs/features/service-levels.md "The screen", route /{tenantId}/servicelevels):
 * the levels of the tenant in the path (the header's tenant picker changes it), or the
 * installation's that every tenant without its own follows. A tenant that follows them shows them
 * read only, with Set Own Levels to start its own from them; a tenant with its own may return to
 * the installation's. Read with ServiceLevels view, changed with edit.
 */
export default function ServiceLevelsPage() {
  const tenantId = useTenantId();
  const canEdit = usePermissions().has('ServiceLevels', 'edit');
  const [levelsParam, setLevelsParam] = useQueryParam('levels');
  const installation = levelsParam === INSTALLATION;
  const whose = installation ? null : tenantId;
  const tenants = useTenantsLookup();
  // The path names a tenant the user may use (the route guard sends others home).
  const tenantName =
    tenants.data?.find((tenant) => tenant.tenantId.toLowerCase() === tenantId.toLowerCase())?.name ?? 'This Tenant';
  const levels = useServiceLevels(whose);

  return (
    <>
      <PageHeader title="Service Levels" />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <TextField
          select
          size="small"
          label="Levels of"
          value={installation ? INSTALLATION : TENANT}
          onChange={(event) => setLevelsParam(event.target.value === INSTALLATION ? INSTALLATION : null)}
          sx={{ minWidth: 240 }}
        >
          <MenuItem value={TENANT}>{tenantName}</MenuItem>
          <MenuItem value={INSTALLATION}>Installation</MenuItem>
        </TextField>
      </Box>
      {levels.isPending && <LinearProgress aria-label="Loading service levels" sx={{ mb: 1 }} />}
      {levels.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          The service levels could not be loaded. {levels.error.message}
        </Alert>
      )}
      {levels.data && (
        <>
          {whose === null ? (
            <Alert severity="info" sx={{ mb: 2 }}>
              The installation’s service levels: every tenant without levels of its own follows them.
              {canEdit && ' Only staff of every tenant may change them.'}
            </Alert>
          ) : (
            <TenantLevelsStatus tenantId={whose} tenantName={tenantName} levels={levels.data} canEdit={canEdit} />
          )}
          {levels.data.modifiedBy && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              Last changed by {levels.data.modifiedBy}
              {levels.data.modified ? `, ${formatDateTime(levels.data.modified)}` : ''}.
            </Typography>
          )}
          <ServiceLevelsForm
            // A new answer (saved, returned to the installation's, another's change) is a new form.
            key={`${whose ?? INSTALLATION} ${String(levels.data.inherited)} ${levels.data.modified ?? ''}`}
            levels={levels.data}
            tenantId={whose}
            readOnly={!canEdit || levels.data.inherited}
          />
        </>
      )}
    </>
  );
}

/** A status line with its button at the right, or under the text on a phone (not squeezed into three lines). */
function StatusAlert({
  severity,
  action,
  children,
}: {
  severity: 'info' | 'success';
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <Alert severity={severity} sx={{ mb: 2, alignItems: { sm: 'center' }, '& .MuiAlert-message': { flex: 1 } }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <span>{children}</span>
        {action}
      </Box>
    </Alert>
  );
}

/** Whether the tenant follows the installation's levels or has its own, and the way to the other. */
function TenantLevelsStatus({
  tenantId,
  tenantName,
  levels,
  canEdit,
}: {
  tenantId: string;
  tenantName: string;
  levels: ServiceLevelsAnswer;
  canEdit: boolean;
}) {
  const own = useSaveServiceLevels(tenantId);
  const reset = useResetServiceLevels(tenantId);
  const [returning, setReturning] = useState(false);
  if (levels.inherited) {
    return (
      <StatusAlert
        severity="info"
        action={
          canEdit && (
            <Button
              color="inherit"
              variant="outlined"
              size="small"
              disabled={own.isPending}
              onClick={() => own.mutate(inputOf(levels))}
            >
              Set Own Levels
            </Button>
          )
        }
      >
        Follows the installation’s service levels.
        {canEdit && ' Set Own Levels gives the tenant levels of its own, starting from these.'}
      </StatusAlert>
    );
  }
  return (
    <>
      <StatusAlert
        severity="success"
        action={
          canEdit && (
            <Button color="inherit" variant="outlined" size="small" onClick={() => setReturning(true)}>
              Return to Installation’s Levels
            </Button>
          )
        }
      >
        {tenantName} has service levels of its own.
      </StatusAlert>
      <ConfirmDialog
        open={returning}
        title="Return to the Installation’s Levels"
        text={`${tenantName}’s own service levels are deleted, and it follows the installation’s again.`}
        confirmLabel="Return"
        cancelLabel="Cancel"
        onConfirm={() => reset.mutateAsync().then(() => setReturning(false))}
        onCancel={() => setReturning(false)}
      />
    </>
  );
}
