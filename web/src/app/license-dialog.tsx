import { useState } from 'react';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { daysUntil, formatDate } from '../lib/dates';
import { useEnvironment } from '../lib/environment';
import { EULA_PARAGRAPHS } from './eula';

export interface LicenseDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Licence expiration, days left and the EULA (spec 000 §1). */
export default function LicenseDialog({ open, onClose }: LicenseDialogProps) {
  const [showEula, setShowEula] = useState(false);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="license-dialog-title">
      <DialogTitle id="license-dialog-title">License</DialogTitle>
      <DialogContent>
        <LicenseExpiration />
        <Link
          component="button"
          type="button"
          variant="body2"
          sx={{ mt: 2 }}
          onClick={() => setShowEula((shown) => !shown)}
          aria-expanded={showEula}
        >
          {showEula ? 'Hide End User License Agreement' : 'View End User License Agreement'}
        </Link>
        <Collapse in={showEula}>
          {EULA_PARAGRAPHS.map((paragraph) => (
            <Typography key={paragraph.slice(0, 24)} variant="body2" sx={{ mt: 1.5 }} color="text.secondary">
              {paragraph}
            </Typography>
          ))}
        </Collapse>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function LicenseExpiration() {
  const environment = useEnvironment();
  if (!environment.isSuccess) return <Typography>{SHELL_MESSAGES.expirationLoading}</Typography>;
  const expiration = environment.data.licenseExpiration;
  if (!expiration) return <Typography>Expiration Date: none</Typography>;
  return (
    <>
      <Typography>Expiration Date: {formatDate(expiration)}</Typography>
      <Typography>Days Left: {daysUntil(expiration)}</Typography>
    </>
  );
}
