import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { ConfirmDialogProps } from './confirm-dialog';

/** The question's dialog (`ConfirmDialog` loads it the first time a question is asked). */
export default function ConfirmDialogPanel({ open, onCancel, ...content }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={onCancel} maxWidth="xs" fullWidth>
      {/* Mounted only while open, so the text and busy state start fresh each time. */}
      {open && <ConfirmDialogContent {...content} onCancel={onCancel} />}
    </Dialog>
  );
}

function ConfirmDialogContent({
  title,
  text,
  confirmLabel,
  cancelLabel,
  input,
  onConfirm,
  onCancel,
}: Omit<ConfirmDialogProps, 'open'>) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const missing = input !== undefined && value.trim() === '';

  const confirm = () => {
    const result = onConfirm(input ? value.trim() : '');
    if (result instanceof Promise) {
      setBusy(true);
      // The caller reports its own failure (a toast); the dialog only stops waiting.
      result.catch(() => undefined).finally(() => setBusy(false));
    }
  };

  return (
    <>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {text && <DialogContentText>{text}</DialogContentText>}
        {input && (
          <TextField
            autoFocus
            required
            fullWidth
            margin="dense"
            label={input.label}
            multiline={input.multiline}
            minRows={input.multiline ? 3 : undefined}
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {cancelLabel ?? (input ? 'Cancel' : 'No')}
        </Button>
        <Button variant="contained" onClick={confirm} disabled={busy || missing}>
          {confirmLabel ?? (input ? 'OK' : 'Yes')}
        </Button>
      </DialogActions>
    </>
  );
}
