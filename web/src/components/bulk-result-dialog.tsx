import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { GridRowId } from '@mui/x-data-grid';
import type { BulkResult } from '@cfs/contracts/api';
import { useToast } from '../lib/toast';
import type { RowSelection } from './row-selection';

export interface BulkOutcome {
  title: string;
  result: BulkResult<GridRowId>;
}

/** "3 work units changed." — the noun in the singular and plural, and what was done to them (changed, queued). */
export function changedText(count: number, noun: { one: string; many: string }, done = 'changed'): string {
  return `${count} ${count === 1 ? noun.one : noun.many} ${done}.`;
}

/**
 * What a bulk action tells the user: a success toast when every item changed; otherwise a dialog
 * listing the refused items with their reasons, which stay selected for another try.
 *
 * @example
 *   const outcome = useBulkOutcome(selection, { one: 'work unit', many: 'work units' });
 *   const result = await bulkState.mutateAsync({ workUnitIds, stateId });
 *   outcome.report('Change State', result);
 *   …
 *   <BulkResultDialog outcome={outcome} describe={(id) => `#${id}`} />
 */
export type BulkOutcomeApi = ReturnType<typeof useBulkOutcome>;

export function useBulkOutcome(selection: RowSelection, noun: { one: string; many: string }, done = 'changed') {
  const toast = useToast();
  const [shown, setShown] = useState<BulkOutcome | null>(null);
  return {
    shown,
    noun,
    done,
    dismiss: () => setShown(null),
    report: (title: string, result: BulkResult<GridRowId>) => {
      selection.set(result.refused.map((refusal) => refusal.id));
      if (result.refused.length === 0) toast.success(changedText(result.succeeded.length, noun, done));
      else setShown({ title, result });
    },
  };
}

export function BulkResultDialog({
  outcome,
  describe = String,
}: {
  outcome: BulkOutcomeApi;
  describe?: (id: GridRowId) => string;
}) {
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
