import { useState } from 'react';
import { type Control, type FieldValues, type Path } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import KeyIcon from '@mui/icons-material/Key';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { tenantSecretInputSchema, tenantSecretVersionInputSchema } from '@cfs/contracts/tenants';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { RowActionButtons } from '../../components/grid-columns';
import { CopyButton } from '../../components/copy-button';
import { FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { useReportUnsavedChanges } from '../../components/side-drawer';
import { DateWithAge } from '../../components/date-with-age';
import {
  useAddSecret,
  useDeleteSecret,
  useRevealSecret,
  useSetSecretValue,
  useTenantSecrets,
  type TenantSecret,
} from './api';
import { useRevealedValues } from './use-revealed-values';
import { PersonLabel } from '../../components/person-label';

const MASK = '••••••••••••';
const monospace = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  wordBreak: 'break-all',
} as const;

/**
 * Secrets (spec 001 §2 Tenants; issue: named, versioned, encrypted at rest). The list carries no
 * values; the latest value is read only when the user reveals it, is held here alone, and is
 * masked again on Hide or after 60 s.
 */
export function TenantSecrets({ tenantId }: { tenantId: string }) {
  const secrets = useTenantSecrets(tenantId);
  const reveal = useRevealSecret(tenantId);
  const remove = useDeleteSecret(tenantId);
  const revealed = useRevealedValues();
  const [settingValue, setSettingValue] = useState<TenantSecret | null>(null);
  const deleting = useItemQuestion<TenantSecret>();
  const { hide } = revealed;

  const show = async (secretId: string) => {
    const latest = await reveal.mutateAsync(secretId);
    // The value is held by `revealed` alone (and masked again after 60 s), not by the mutation.
    reveal.reset();
    revealed.show(secretId, latest.value);
  };

  return (
    <Box>
      <AddSecretForm tenantId={tenantId} onAdded={hide} />
      {secrets.isPending && <LinearProgress />}
      {secrets.data && secrets.data.length === 0 && (
        <Typography color="text.secondary">This tenant has no secrets.</Typography>
      )}
      {secrets.data && secrets.data.length > 0 && (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Secrets">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Version</TableCell>
                <TableCell>Modified</TableCell>
                <TableCell>Value</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {secrets.data.map((secret) => {
                const value = revealed.values[secret.secretId];
                return (
                  <TableRow key={secret.secretId}>
                    <TableCell sx={{ ...monospace, wordBreak: 'normal', whiteSpace: 'nowrap' }}>
                      {secret.name}
                    </TableCell>
                    <TableCell>{secret.latestVersion}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <DateWithAge value={secret.modified} />
                      {secret.modifiedBy && (
                        <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                          <PersonLabel value={secret.modifiedBy} />
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell sx={{ maxWidth: 260 }}>
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                        <Box
                          component="span"
                          sx={monospace}
                          aria-label={value === undefined ? 'Hidden value' : `Value of ${secret.name}`}
                        >
                          {value ?? MASK}
                        </Box>
                        {value === undefined ? (
                          <Tooltip title="Reveal">
                            <span>
                              <IconButton
                                size="small"
                                aria-label={`Reveal ${secret.name}`}
                                disabled={reveal.isPending}
                                onClick={() => void show(secret.secretId).catch(() => undefined)}
                              >
                                <VisibilityIcon fontSize="small" />
                              </IconButton>
                            </span>
                          </Tooltip>
                        ) : (
                          <>
                            <CopyButton text={value} label={`Copy ${secret.name}`} />
                            <Tooltip title="Hide">
                              <IconButton
                                size="small"
                                aria-label={`Hide ${secret.name}`}
                                onClick={() => hide(secret.secretId)}
                              >
                                <VisibilityOffIcon fontSize="small" />
                              </IconButton>
                            </Tooltip>
                          </>
                        )}
                      </Box>
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <RowActionButtons
                        actions={[
                          {
                            label: 'Set New Value',
                            name: `Set new value of ${secret.name}`,
                            icon: <KeyIcon fontSize="small" />,
                            onClick: () => setSettingValue(secret),
                          },
                          {
                            label: 'Delete',
                            name: `Delete ${secret.name}`,
                            icon: <DeleteOutlineIcon fontSize="small" />,
                            color: 'error',
                            onClick: () => deleting.ask(secret),
                          },
                        ]}
                      />
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Paper>
      )}
      {settingValue && (
        <SetSecretValueDialog
          tenantId={tenantId}
          secret={settingValue}
          onDone={() => {
            hide(settingValue.secretId);
            setSettingValue(null);
          }}
          onCancel={() => setSettingValue(null)}
        />
      )}
      <ItemConfirmDialog
        question={deleting}
        title="Delete Secret"
        text={(secret) =>
          `Are you sure you want to delete the secret "${secret.name}" and all its versions? Actions that use it will fail.`
        }
        onConfirm={(secret) => remove.mutateAsync(secret.secretId).then(() => hide(secret.secretId))}
      />
    </Box>
  );
}

/** A password box with a show/hide button, for typing a secret value. */
function SecretValueField<T extends FieldValues>({
  control,
  name,
  autoFocus,
}: {
  control: Control<T>;
  name: Path<T>;
  autoFocus?: boolean;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <FormTextField
      control={control}
      name={name}
      label="Value"
      required
      autoFocus={autoFocus}
      type={visible ? 'text' : 'password'}
      autoComplete="new-password"
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                size="small"
                aria-label={visible ? 'Hide value' : 'Show value'}
                onClick={() => setVisible(!visible)}
                edge="end"
              >
                {visible ? <VisibilityOffIcon fontSize="small" /> : <VisibilityIcon fontSize="small" />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

function AddSecretForm({ tenantId, onAdded }: { tenantId: string; onAdded: (secretId: string) => void }) {
  const form = useSchemaForm(tenantSecretInputSchema, { name: '', value: '' });
  const add = useAddSecret(tenantId);
  useReportUnsavedChanges(form.formState.isDirty);
  const submit = form.handleSubmit(async (input) => {
    const saved = await add.mutateAsync(input).catch(() => null);
    if (!saved) return;
    onAdded(saved.secretId);
    form.reset({ name: '', value: '' });
  });
  return (
    <Paper
      variant="outlined"
      component="form"
      noValidate
      onSubmit={(event) => void submit(event)}
      sx={{ px: 2, pb: 2, mb: 2 }}
      aria-label="Add secret"
    >
      <Typography variant="subtitle2" sx={{ pt: 1.5 }}>
        Add Secret
      </Typography>
      <Typography variant="caption" color="text.secondary">
        A name that exists already gets a new version of its value.
      </Typography>
      <Box
        sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr auto' }, alignItems: 'start' }}
      >
        <FormTextField control={form.control} name="name" label="Name" required autoComplete="off" />
        <SecretValueField control={form.control} name="value" />
        <Button
          type="submit"
          variant="contained"
          startIcon={<AddIcon />}
          disabled={!form.formState.isDirty || add.isPending}
          sx={{ mt: 3 }}
        >
          Add
        </Button>
      </Box>
    </Paper>
  );
}

function SetSecretValueDialog({
  tenantId,
  secret,
  onDone,
  onCancel,
}: {
  tenantId: string;
  secret: TenantSecret;
  onDone: () => void;
  onCancel: () => void;
}) {
  const form = useSchemaForm(tenantSecretVersionInputSchema, { value: '' });
  const setValue = useSetSecretValue(tenantId);
  const submit = form.handleSubmit(async ({ value }) => {
    const saved = await setValue.mutateAsync({ secretId: secret.secretId, value }).catch(() => null);
    if (saved) onDone();
  });
  return (
    <Dialog open onClose={onCancel} maxWidth="xs" fullWidth>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle>Set New Value: {secret.name}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary">
            The new value becomes version {secret.latestVersion + 1}; actions use it from now on.
          </Typography>
          <SecretValueField control={form.control} name="value" autoFocus />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!form.formState.isDirty || setValue.isPending}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
