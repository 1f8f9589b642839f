import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import Typography from '@mui/material/Typography';
import { DRAWER_DEFAULT_WIDTH } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';

export interface AccessRequestDrawerProps {
  open: boolean;
  onClose: () => void;
}

/** Stands in for the account request drawer of the access request area (spec 001 §2) until it is built. */
export default function AccessRequestDrawer({ open, onClose }: AccessRequestDrawerProps) {
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100vw', sm: DRAWER_DEFAULT_WIDTH } } } }}>
      <Box sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Request Access or Reset Account
        </Typography>
        <Typography color="text.secondary">{SHELL_MESSAGES.areaNotAvailable}</Typography>
        <Button sx={{ mt: 2 }} onClick={onClose}>
          Close
        </Button>
      </Box>
    </Drawer>
  );
}
