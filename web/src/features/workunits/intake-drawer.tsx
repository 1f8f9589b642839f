import Typography from '@mui/material/Typography';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { SideDrawer } from '../../components/side-drawer';

/** The intake panel the Create menu's Intake opens (spec 001 §2 "Intake drawer"); the wizard comes with the intake issue. */
export default function IntakeDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <SideDrawer open={open} onClose={onClose} title="Intake">
      <Typography color="text.secondary">{SHELL_MESSAGES.areaNotAvailable}</Typography>
    </SideDrawer>
  );
}
