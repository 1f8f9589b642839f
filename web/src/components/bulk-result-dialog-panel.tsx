import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { changedText, type BulkResultDialogProps } from './bulk-result-dialog';

/** The refused items of a bulk action (`BulkResultDialog` loads it the first time one is refused). */
export default function BulkResultDialogPanel({ outcome, describe = String }: BulkResultDialogProps) {
  const { shown, noun, done, dismiss } = outcome;
  return (
    <Dialog open={shown !== null} onClose={dismiss} maxWidth="sm" fullWidth>
      <DialogTitle>{shown?.title}</DialogTitle>
      {shown && (
        <DialogContent>
          <Typography>{changedText(shown.result.succeeded.length, noun, done)}</Typography>
          <Typography sx={{ mt: 1 }}>{shown.result.refused.length} refused; they stay selected:</Typography>
          <List dense aria-label="Refused">
            {shown.result.refused.map((refusal) => (
              <ListItem key={String(refusal.id)} disableGutters>
                <ListItemText primary={describe(refusal.id)} secondary={refusal.message} />
              </ListItem>
            ))}
          </List>
        </DialogContent>
      )}
      <DialogActions>
        <Button variant="contained" onClick={dismiss}>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}
