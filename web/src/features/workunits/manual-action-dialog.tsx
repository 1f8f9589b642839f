import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useEmailPreview, type ManualAction } from './automation-api';
import { initialParameterValues, isSendEmail } from './manual-actions';
import { spacedName } from './work-unit-display';
import { FactList, FactRows } from '../../components/fact-list';

/** How long the preview waits for typing to stop before it is rendered again. */
const PREVIEW_DEBOUNCE_MS = 400;

export interface ManualActionDialogProps {
  workUnitId: number;
  /** The action whose parameters are asked for; null: closed. */
  action: ManualAction | null;
  busy: boolean;
  onRun: (values: Record<string, string>) => void;
  onCancel: () => void;
}

/** The parameter dialog of a manual action with input parameters (spec 001 §2), with the email it would send for Send Email. */
export function ManualActionDialog({ workUnitId, action, busy, onRun, onCancel }: ManualActionDialogProps) {
  return (
    <Dialog open={action !== null} onClose={onCancel} maxWidth="md" fullWidth>
      {action && (
        <ParametersForm
          key={action.protocolActionId}
          workUnitId={workUnitId}
          action={action}
          busy={busy}
          onRun={onRun}
          onCancel={onCancel}
        />
      )}
    </Dialog>
  );
}

function ParametersForm({
  workUnitId,
  action,
  busy,
  onRun,
  onCancel,
}: ManualActionDialogProps & { action: ManualAction }) {
  const [values, setValues] = useState(() => initialParameterValues(action));
  return (
    <>
      <DialogTitle>{action.actionDefinition.name}</DialogTitle>
      <DialogContent dividers>
        {action.summary && <Typography gutterBottom>{action.summary}</Typography>}
        {Object.entries(values).map(([name, value]) => (
          <TextField
            key={name}
            fullWidth
            margin="dense"
            label={spacedName(name)}
            value={value}
            onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
          />
        ))}
        {isSendEmail(action) && (
          <EmailPreview workUnitId={workUnitId} protocolActionId={action.protocolActionId} values={values} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" disabled={busy} onClick={() => onRun(values)}>
          Run
        </Button>
      </DialogActions>
    </>
  );
}

function EmailPreview({
  workUnitId,
  protocolActionId,
  values,
}: {
  workUnitId: number;
  protocolActionId: string;
  values: Record<string, string>;
}) {
  const settled = useDebouncedValue(values, PREVIEW_DEBOUNCE_MS);
  const preview = useEmailPreview(workUnitId, protocolActionId, settled, true);
  const email = preview.data;
  return (
    <Box component="section" aria-label="Email preview" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3">
        Email Preview
      </Typography>
      {preview.isFetching && <LinearProgress />}
      {preview.isError && <Alert severity="error">The email could not be previewed.</Alert>}
      {email && (
        <>
          <FactList wrap="break-word" sx={{ my: 1 }}>
            <FactRows
              rows={[
                ['To', email.to || '—'],
                ['Cc', email.cc || '—'],
                ['Bcc', email.bcc || '—'],
                ['Subject', email.subject || '—'],
              ]}
            />
          </FactList>
          {/* The body is HTML from the template: shown in a sandbox, with no scripts and no access to the portal. */}
          <Box
            component="iframe"
            title="Email body"
            sandbox=""
            srcDoc={email.body}
            sx={{ width: '100%', height: '18rem', border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
          />
        </>
      )}
    </Box>
  );
}
