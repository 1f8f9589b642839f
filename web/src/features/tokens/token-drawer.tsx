import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import BlockIcon from '@mui/icons-material/Block';
import { TOKEN_LIFETIMES, TOKEN_MESSAGES, tokenCreateSchema, tokenUpdateSchema } from '@cfs/contracts/tokens';
import { CopyButton } from '../../components/copy-button';
import { FormActions } from '../../components/form-actions';
import { FormSelectField, FormTextField, type FieldOption } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { AuditHistoryButton } from '../../components/audit-history';
import { SideDrawer, useReportUnsavedChanges } from '../../components/side-drawer';
import { formatDateTime } from '../../lib/dates';
import { useCreateToken, useTokenGrant, useUpdateToken, type GeneratedToken, type TokenGrant } from './api';
import { TokenStatusChip } from './token-status-chip';
import { PersonLabel } from '../../components/person-label';
import { FactList } from '../../components/fact-list';

const LIFETIME_OPTIONS: FieldOption[] = TOKEN_LIFETIMES.map((lifetime) => ({
  value: lifetime.value,
  label: lifetime.label,
}));
const monospace = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  wordBreak: 'break-all',
} as const;

export interface TokenDrawerProps {
  id: string | null;
  tenantId: string;
  /** The name of the tenant whose token the drawer creates. */
  tenantName: string | undefined;
  /** The token just created, shown once above its grant (spec 001 §2 Tokens). */
  generated: GeneratedToken | null;
  onCreated: (token: GeneratedToken) => void;
  onRevoke: (grant: TokenGrant) => void;
  onClose: () => void;
}

export default function TokenDrawer({
  id,
  tenantId,
  tenantName,
  generated,
  onCreated,
  onRevoke,
  onClose,
}: TokenDrawerProps) {
  const grant = useTokenGrant(id);
  const creating = id === 'new';
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      title={creating ? 'Create Token' : `Edit Token${grant.data ? `: ${grant.data.name}` : ''}`}
      headerActions={grant.data && <AuditHistoryButton entityType="tokenGrant" entityId={grant.data.tokenGrantId} />}
    >
      {generated && generated.tokenGrantId === id && <GeneratedTokenPanel token={generated.generatedToken} />}
      {creating && (
        <>
          {tenantName && (
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              The token is created for {tenantName}: machines using it act in {tenantName}.
            </Typography>
          )}
          <TokenCreateForm tenantId={tenantId} onCreated={onCreated} />
        </>
      )}
      {!creating && !grant.notFound && grant.isPending && <LinearProgress />}
      {!creating && grant.data && (
        <TokenEditForm key={grant.data.tokenGrantId} grant={grant.data} onRevoke={onRevoke} onClose={onClose} />
      )}
      {grant.notFound && <Typography color="text.secondary">This token does not exist.</Typography>}
    </SideDrawer>
  );
}

function GeneratedTokenPanel({ token }: { token: string }) {
  // Closing the drawer loses the token for good: the drawer asks first (and so does the browser
  // before the tab closes).
  useReportUnsavedChanges(true, TOKEN_MESSAGES.closeWhileShown);
  return (
    <Alert severity="warning" sx={{ mb: 2, '& .MuiAlert-message': { flex: 1, minWidth: 0 } }} role="status">
      <AlertTitle>{TOKEN_MESSAGES.shownOnce}</AlertTitle>
      <Paper variant="outlined" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 1, mt: 1 }}>
        <Box component="code" sx={{ ...monospace, flex: 1 }} aria-label="Generated token">
          {token}
        </Box>
        <CopyButton text={token} label="Copy token" size="medium" />
      </Paper>
    </Alert>
  );
}

function TokenCreateForm({ tenantId, onCreated }: { tenantId: string; onCreated: (token: GeneratedToken) => void }) {
  // No lifetime chosen yet: the choice is required on create (spec 001 §5).
  const form = useSchemaForm(tokenCreateSchema, { tenantId, name: '', description: '', lifetimeYears: undefined });
  const create = useCreateToken();
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormTextField control={form.control} name="description" label="Description" multiline minRows={2} />
      <FormSelectField
        control={form.control}
        name="lifetimeYears"
        label="Lifetime"
        options={LIFETIME_OPTIONS}
        required
      />
      {/* Save only: the drawer stays open on the new grant, where the token is shown once. */}
      <FormActions
        form={form}
        onSave={async (input) => {
          const token = await create.mutateAsync(input);
          // The page holds the token from here on; the mutation lets go of it.
          create.reset();
          onCreated(token);
        }}
        loading={create.isPending}
      />
    </form>
  );
}

function TokenEditForm({
  grant,
  onRevoke,
  onClose,
}: {
  grant: TokenGrant;
  onRevoke: (grant: TokenGrant) => void;
  onClose: () => void;
}) {
  const form = useSchemaForm(tokenUpdateSchema, { name: grant.name, description: grant.description ?? '' });
  const update = useUpdateToken(grant.tokenGrantId);
  const lifetime =
    TOKEN_LIFETIMES.find((option) => option.value === grant.lifetimeYears)?.label ?? `${grant.lifetimeYears} years`;
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FactList>
        <dt>Status</dt>
        <dd>
          <TokenStatusChip grant={grant} />
          {grant.revokedOn && ` ${formatDateTime(grant.revokedOn)}`}
        </dd>
        <dt>Token</dt>
        <Box component="dd" sx={monospace}>
          {grant.tokenPrefix}…
        </Box>
        <dt>Lifetime</dt>
        <dd>{lifetime}</dd>
        <dt>Created</dt>
        <dd>
          {formatDateTime(grant.created)}
          {grant.createdBy && (
            <>
              {' by '}
              <PersonLabel value={grant.createdBy} />
            </>
          )}
        </dd>
        <dt>Expires On</dt>
        <dd>{grant.expiresOn ? formatDateTime(grant.expiresOn) : 'Forever'}</dd>
      </FactList>
      <FormTextField control={form.control} name="name" label="Name" required />
      <FormTextField control={form.control} name="description" label="Description" multiline minRows={2} />
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 1 }}>
        {grant.revokedOn === null && (
          <Button
            color="error"
            variant="outlined"
            startIcon={<BlockIcon />}
            onClick={() => onRevoke(grant)}
            sx={{ mb: 0 }}
          >
            Revoke
          </Button>
        )}
        <Box sx={{ flex: 1 }}>
          <FormActions
            form={form}
            onSave={(input) => update.mutateAsync(input)}
            onClose={onClose}
            loading={update.isPending}
          />
        </Box>
      </Box>
    </form>
  );
}
