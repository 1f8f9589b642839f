import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DataObjectIcon from '@mui/icons-material/DataObject';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { INTAKE_MESSAGES } from '@cfs/contracts/intake';
import { usePermissions } from '../../auth/session-data';
import { SideDrawer, useUnsavedChangesGuard } from '../../components/side-drawer';
import { isGuid } from '@cfs/contracts/values/odata';
import { useTenantName, useTenantsLookup } from '../../lib/lookups';
import { useIntakeSchema } from './intake-api';
import { IntakeSchemaPanel } from './intake-schema-panel';
import { IntakeWizard } from './intake-wizard';
import { parseIntakeSchema } from './intake-wizard-model';

export interface IntakeDrawerProps {
  /** `?intake=`: "new" until a tenant is picked, then the picked tenant's id. */
  openId: string | null;
  onPickTenant: (tenantId: string) => void;
  onClose: () => void;
}

/**
 * The intake panel (spec 001 §2 "Intake drawer", §4 Panels): first the tenant selection panel,
 * which closes when a tenant is picked; then the wizard built from that tenant's stored schema.
 * Users who may edit tenants open the schema panel from here.
 */
export default function IntakeDrawer({ openId, onPickTenant, onClose }: IntakeDrawerProps) {
  const open = openId !== null;
  const tenantId = isGuid(openId) ? openId : null;
  const tenants = useTenantsLookup();
  const canEditTenants = usePermissions().has('Tenants', 'edit');
  const [selecting, setSelecting] = useState(open && tenantId === null);
  const [schemaOpen, setSchemaOpen] = useState(false);
  // Opened again without a tenant (Create > Intake): the selection comes first again. Set during
  // render, React's pattern for state that follows a prop.
  const [seenOpenId, setSeenOpenId] = useState(openId);
  if (openId !== seenOpenId) {
    setSeenOpenId(openId);
    if (open && tenantId === null) setSelecting(true);
    if (!open) setSchemaOpen(false);
  }
  const tenantName = useTenantName(tenantId) ?? '';

  return (
    <>
      <SideDrawer open={open} onClose={onClose} title={tenantId ? `Intake: ${tenantName}` : 'Intake'}>
        {tenantId === null ? (
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2 }}>
            <Typography color="text.secondary">Choose the tenant the intake is for.</Typography>
            <Button variant="contained" onClick={() => setSelecting(true)}>
              Select Tenant
            </Button>
          </Box>
        ) : (
          <>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
              <Typography sx={{ flex: 1 }}>
                Tenant: <strong>{tenantName}</strong>
              </Typography>
              <ChangeTenantButton onClick={() => setSelecting(true)} />
              {canEditTenants && (
                <Button size="small" startIcon={<DataObjectIcon />} onClick={() => setSchemaOpen(true)}>
                  Schema
                </Button>
              )}
            </Box>
            <IntakeForm key={tenantId} tenantId={tenantId} tenantName={tenantName} />
          </>
        )}
      </SideDrawer>
      <SideDrawer open={open && selecting} onClose={() => setSelecting(false)} title="Select Tenant" width="30vw">
        <TenantSelection
          tenants={tenants.data ?? []}
          loading={tenants.isPending}
          failed={tenants.isError}
          value={tenantId}
          onPick={(id) => {
            setSelecting(false);
            if (id !== tenantId) onPickTenant(id);
          }}
        />
      </SideDrawer>
      {canEditTenants && tenantId !== null && (
        <IntakeSchemaPanel
          open={open && schemaOpen}
          tenantId={tenantId}
          tenantName={tenantName}
          onClose={() => setSchemaOpen(false)}
        />
      )}
    </>
  );
}

/** Another tenant means another form: answers given so far are asked about first. */
function ChangeTenantButton({ onClick }: { onClick: () => void }) {
  const guard = useUnsavedChangesGuard();
  return (
    <Button size="small" startIcon={<SwapHorizIcon />} onClick={() => guard.confirmThen(onClick)}>
      Change Tenant
    </Button>
  );
}

/** The tenant selection panel's form: the tenants the user works in; picking one is the answer. */
function TenantSelection({
  tenants,
  loading,
  failed,
  value,
  onPick,
}: {
  tenants: readonly { tenantId: string; name: string }[];
  loading: boolean;
  failed: boolean;
  value: string | null;
  onPick: (tenantId: string) => void;
}) {
  if (loading) return <CircularProgress size={24} aria-label="Loading" />;
  if (failed) return <Alert severity="error">{INTAKE_MESSAGES.problem}</Alert>;
  if (tenants.length === 0) return <Typography color="text.secondary">{INTAKE_MESSAGES.noTenants}</Typography>;
  return (
    <TextField
      select
      fullWidth
      label="Tenant"
      value={value ?? ''}
      onChange={(event) => onPick(event.target.value)}
      helperText="The tenant the intake is for."
    >
      {tenants.map((tenant) => (
        <MenuItem key={tenant.tenantId} value={tenant.tenantId}>
          {tenant.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The tenant's stored schema as a wizard, or why there is none. */
function IntakeForm({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const stored = useIntakeSchema(tenantId);
  const schema = useMemo(() => (stored.data === undefined ? null : parseIntakeSchema(stored.data)), [stored.data]);
  if (stored.isPending) return <CircularProgress size={24} aria-label="Loading" />;
  if (stored.isError) return <Alert severity="error">{INTAKE_MESSAGES.problem}</Alert>;
  if (!stored.data.trim()) return <Alert severity="info">{INTAKE_MESSAGES.noSchema}</Alert>;
  if (!schema) return <Alert severity="error">{INTAKE_MESSAGES.problem}</Alert>;
  // A new schema (uploaded in the schema panel) starts the wizard again.
  return <IntakeWizard key={stored.data} schema={schema} tenant={{ tenantId, name: tenantName }} />;
}
