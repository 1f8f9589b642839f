import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DoneIcon from '@mui/icons-material/Done';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import { SILENCE_DURATIONS, type AcknowledgeMatches, type SilenceMatches } from '@cfs/contracts/rule-matches';
import { apiSend } from '../lib/api-client';
import { formatSpan } from '../lib/dates';
import { listQueryKey } from '../lib/list-api';
import { useApiMutation } from '../lib/mutations';

const RULE_MATCHES_KEY = listQueryKey('/v1/rulematches');

type Kind = 'acknowledge' | 'silence';

/**
 * Acknowledge and Silence for the chosen open matches (docs/features/rules.md "Acknowledge and
 * silence"): each asks for a note (and how long to silence for) in a dialog, then calls
 * POST v1/rulematches/acknowledge or /silence for them all at once.
 */
export function RuleMatchActions({ selected, onDone }: { selected: readonly string[]; onDone: () => void }) {
  const [open, setOpen] = useState<Kind | null>(null);
  const [note, setNote] = useState('');
  const [duration, setDuration] = useState<string>(SILENCE_DURATIONS[1]);
  const send = useApiMutation({
    mutationFn: (kind: Kind) =>
      kind === 'acknowledge'
        ? apiSend<{ message: string }>('POST', '/v1/rulematches/acknowledge', {
            ruleMatchIds: [...selected],
            note,
          } satisfies AcknowledgeMatches)
        : apiSend<{ message: string }>('POST', '/v1/rulematches/silence', {
            ruleMatchIds: [...selected],
            duration,
            note,
          } satisfies SilenceMatches),
    invalidate: [RULE_MATCHES_KEY],
    successMessage: (answer) => answer.message,
    errorMessage: (error) => error.message,
    onSuccess: () => {
      setOpen(null);
      setNote('');
      onDone();
    },
  });
  const count = selected.length;
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }} role="toolbar" aria-label="Match actions">
        <Typography variant="body2" color="text.secondary" sx={{ minWidth: '7rem' }}>
          {count === 0 ? 'Choose open matches' : `${count} chosen`}
        </Typography>
        <Button size="small" startIcon={<DoneIcon />} disabled={count === 0} onClick={() => setOpen('acknowledge')}>
          Acknowledge
        </Button>
        <Button
          size="small"
          startIcon={<NotificationsOffIcon />}
          disabled={count === 0}
          onClick={() => setOpen('silence')}
        >
          Silence
        </Button>
      </Stack>
      <Dialog open={open !== null} onClose={() => setOpen(null)} maxWidth="sm" fullWidth>
        <DialogTitle>
          {open === 'silence' ? 'Silence' : 'Acknowledge'} {count} {count === 1 ? 'match' : 'matches'}
        </DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {open === 'silence'
              ? count === 1
                ? "Its rule's actions for this subject are held back until the silence ends; if the match is still open then, it runs its match actions."
                : "Their rules' actions for these subjects are held back until the silence ends; a match still open then runs its match actions."
              : count === 1
                ? 'Tells everyone you have taken it on. It ends when the match closes.'
                : 'Tells everyone you have taken them on. It ends when each match closes.'}
          </Typography>
          {open === 'silence' && (
            <TextField
              select
              fullWidth
              margin="normal"
              label="For"
              value={duration}
              onChange={(event) => setDuration(event.target.value)}
            >
              {SILENCE_DURATIONS.map((choice) => (
                <MenuItem key={choice} value={choice}>
                  {formatSpan(choice)}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            fullWidth
            multiline
            minRows={2}
            margin="normal"
            label="Note"
            value={note}
            onChange={(event) => setNote(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 2000 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)}>Cancel</Button>
          <Button variant="contained" disabled={send.isPending} onClick={() => open && send.mutate(open)}>
            {open === 'silence' ? 'Silence' : 'Acknowledge'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
