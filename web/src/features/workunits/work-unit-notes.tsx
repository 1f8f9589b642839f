import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import PhoneCallbackIcon from '@mui/icons-material/PhoneCallback';
import { HISTORY_TYPE_LABELS, TEXT_MAX, WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { DateWithAge } from '../../components/date-with-age';
import { isShortcut } from '../../lib/shortcuts';
import type { HistoryRecord } from './api';
import { useWorkUnitNotes, type NotesView } from './use-work-unit-notes';
import { spacedName } from './work-unit-display';
import { PersonLabel } from '../../components/person-label';

/** Notes and history under the form (spec 001 §2 "Notes area"). */
export function WorkUnitNotes({ workUnitId }: { workUnitId: number }) {
  const notes = useWorkUnitNotes(workUnitId);
  return (
    <Box component="section" aria-label="Notes" sx={{ mt: 4 }}>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }} spacing={2}>
        <Typography variant="subtitle1" component="h3" sx={{ flex: 1 }}>
          Notes
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={notes.view}
          onChange={(_event, view: NotesView | null) => view && notes.setView(view)}
          aria-label="Notes shown"
        >
          <ToggleButton value="all">All history</ToggleButton>
          <ToggleButton value="external">External notes</ToggleButton>
        </ToggleButtonGroup>
      </Stack>

      <TextField
        fullWidth
        multiline
        minRows={3}
        label="New note"
        value={notes.detail}
        onChange={(event) => notes.setDetail(event.target.value)}
        onKeyDown={(event) => {
          // Ctrl+Enter adds the note, as Add Note does (a plain Enter is a new line).
          if (!isShortcut(event, 'Enter')) return;
          event.preventDefault();
          if (!notes.saving && notes.detail.trim() !== '') notes.submit();
        }}
        error={notes.error !== null}
        helperText={notes.error ?? `${notes.detail.length}/${TEXT_MAX}`}
        slotProps={{ htmlInput: { maxLength: TEXT_MAX } }}
      />
      <LinearProgress
        variant="determinate"
        value={notes.length.percent}
        color={notes.length.color}
        aria-label="Note length"
        sx={{ mt: 0.5 }}
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 1 }}>
        <FormControlLabel
          control={
            <Checkbox
              checked={notes.isExternalNote}
              onChange={(event) => notes.setExternalNote(event.target.checked)}
            />
          }
          label="External note"
        />
        <Box sx={{ flex: 1 }} />
        {notes.offersCallMe && (
          <Button variant="outlined" startIcon={<PhoneCallbackIcon />} disabled={notes.calling} onClick={notes.callMe}>
            Call Me
          </Button>
        )}
        <Button
          variant="contained"
          disabled={notes.saving || notes.detail.trim() === ''}
          onClick={notes.submit}
          title="Ctrl+Enter"
        >
          Add Note
        </Button>
      </Stack>

      {notes.loading ? (
        <LinearProgress sx={{ mt: 2 }} />
      ) : notes.records.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          {WORK_UNIT_MESSAGES.noNotes}
        </Typography>
      ) : (
        <List aria-label="History records">
          {notes.records.map((record) => (
            <HistoryItem key={record.id} record={record} />
          ))}
        </List>
      )}
    </Box>
  );
}

function HistoryItem({ record }: { record: HistoryRecord }) {
  const systemLabel =
    record.historyType === null
      ? null
      : spacedName(HISTORY_TYPE_LABELS[record.historyType] ?? SHELL_MESSAGES.unknownEnum);
  return (
    <ListItem divider disableGutters sx={{ display: 'block' }}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', mb: 0.5, flexWrap: 'wrap' }}>
        <Typography variant="caption" color="text.secondary">
          <DateWithAge value={record.created} />
          {record.createdBy && (
            <>
              {' · '}
              <PersonLabel value={record.createdBy} />
            </>
          )}
        </Typography>
        {systemLabel ? (
          <Chip size="small" variant="outlined" label={systemLabel} />
        ) : (
          <Chip size="small" label="Note" />
        )}
        {record.isExternalNote && <Chip size="small" color="info" label="External" />}
      </Stack>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {record.detail}
      </Typography>
    </ListItem>
  );
}
