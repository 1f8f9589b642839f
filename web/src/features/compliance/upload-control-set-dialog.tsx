import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useUploadControlSet } from './api';

export interface UploadControlSetDialogProps {
  open: boolean;
  tenantId: string;
  /** Whether the user may offer the set to every tenant (an administrator of all tenants). */
  canShare: boolean;
  onClose: () => void;
  onUploaded: (controlSetId: string) => void;
}

/**
 * Adds a control set from a file: the shape the portal ships its NIST baselines in
 * (`{ name, description, source, controls: [{ id, family, title, description }] }`) or an OSCAL
 * catalog JSON. The set is the tenant's own, or (for an administrator) every tenant's.
 */
export default function UploadControlSetDialog({
  open,
  tenantId,
  canShare,
  onClose,
  onUploaded,
}: UploadControlSetDialogProps) {
  const [file, setFile] = useState<File | null>(null);
  const [scope, setScope] = useState<'tenant' | 'shared'>('tenant');
  const upload = useUploadControlSet();
  const close = () => {
    setFile(null);
    setScope('tenant');
    upload.reset();
    onClose();
  };
  const send = async () => {
    if (!file) return;
    const set = await upload
      .mutateAsync({ file, tenantId: scope === 'shared' ? null : tenantId })
      .catch(() => undefined);
    if (set) {
      onUploaded(set.id);
      close();
    }
  };
  return (
    <Dialog open={open} onClose={upload.isPending ? undefined : close} maxWidth="sm" fullWidth>
      <DialogTitle>Upload Control Set</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          A JSON file in the shape of the shipped baselines (name, description, source, and controls with id, family,
          title and description), or an OSCAL catalog.
        </DialogContentText>
        <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
          Choose File
          <input
            hidden
            type="file"
            accept=".json,application/json"
            aria-label="Control set file"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </Button>
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="control-set-file-name">
          {file ? file.name : 'No file chosen'}
        </Typography>
        {canShare && (
          <RadioGroup
            value={scope}
            onChange={(event) => setScope(event.target.value === 'shared' ? 'shared' : 'tenant')}
            sx={{ mt: 2 }}
          >
            <FormControlLabel value="tenant" control={<Radio />} label="This tenant only" />
            <FormControlLabel value="shared" control={<Radio />} label="Every tenant" />
          </RadioGroup>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={upload.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={!file || upload.isPending}>
          Upload
        </Button>
      </DialogActions>
    </Dialog>
  );
}
