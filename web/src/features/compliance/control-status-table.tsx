import { Fragment, memo, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import { MAX_CONTROL_NOTES, type ControlStatusValue } from '@cfs/contracts/compliance';
import { statusOf, type ControlRow } from './api';
import { ControlStatusToggle } from './control-status-toggle';

export interface ControlPermissions {
  create: boolean;
  edit: boolean;
  delete: boolean;
}

export interface ControlStatusTableProps {
  controls: readonly ControlRow[];
  permissions: ControlPermissions;
  onChooseStatus: (control: ControlRow, status: ControlStatusValue | null) => void;
  onSaveNotes: (control: ControlRow, notes: string) => void;
}

interface Family {
  name: string;
  controls: ControlRow[];
}

/** The controls by family, in the catalogue's order (the server answers them by sort order). */
function byFamily(controls: readonly ControlRow[]): Family[] {
  const families = new Map<string, ControlRow[]>();
  for (const control of controls) {
    const list = families.get(control.family);
    if (list) list.push(control);
    else families.set(control.family, [control]);
  }
  return [...families].map(([name, members]) => ({ name, controls: members }));
}

/**
 * The checklist's grid (spec 002 §2): Control, Status and Notes, the controls under a header row per
 * family that folds its controls away. A control's statement shows on demand under its row.
 */
export function ControlStatusTable({ controls, permissions, onChooseStatus, onSaveNotes }: ControlStatusTableProps) {
  const families = useMemo(() => byFamily(controls), [controls]);
  const [folded, setFolded] = useState<ReadonlySet<string>>(new Set());
  const toggleFamily = (name: string) =>
    setFolded((current) => {
      const next = new Set(current);
      if (!next.delete(name)) next.add(name);
      return next;
    });
  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}>
      <Table size="small" stickyHeader aria-label="Controls" sx={phoneRows}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: '35%' }}>Control</TableCell>
            {/* As wide as the toggle needs; the notes take what is left. */}
            <TableCell sx={{ width: '1%', whiteSpace: 'nowrap' }}>Status</TableCell>
            <TableCell sx={{ minWidth: 240 }}>Notes</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {families.map((family) => {
            const open = !folded.has(family.name);
            const set = family.controls.filter((control) => statusOf(control) !== undefined).length;
            return (
              <Fragment key={family.name}>
                <TableRow sx={{ bgcolor: 'action.hover' }} data-testid="control-family">
                  <TableCell colSpan={3} sx={{ py: 0.5 }}>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <IconButton
                        size="small"
                        aria-expanded={open}
                        aria-label={`${open ? 'Fold' : 'Unfold'} ${family.name}`}
                        onClick={() => toggleFamily(family.name)}
                      >
                        {open ? <ExpandMoreIcon fontSize="small" /> : <KeyboardArrowRightIcon fontSize="small" />}
                      </IconButton>
                      <Typography variant="subtitle2" component="h2">
                        {family.name}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {set} of {family.controls.length} set
                      </Typography>
                    </Box>
                  </TableCell>
                </TableRow>
                {open &&
                  family.controls.map((control) => (
                    <ControlStatusRow
                      key={control.id}
                      control={control}
                      permissions={permissions}
                      onChooseStatus={onChooseStatus}
                      onSaveNotes={onSaveNotes}
                    />
                  ))}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

interface ControlStatusRowProps {
  control: ControlRow;
  permissions: ControlPermissions;
  onChooseStatus: (control: ControlRow, status: ControlStatusValue | null) => void;
  onSaveNotes: (control: ControlRow, notes: string) => void;
}

/** One control: only the row whose record changed renders again (the cache replaces that control alone). */
const ControlStatusRow = memo(function ControlStatusRow({
  control,
  permissions,
  onChooseStatus,
  onSaveNotes,
}: ControlStatusRowProps) {
  const record = statusOf(control);
  const saved = record?.notes ?? '';
  const [notes, setNotes] = useState(saved);
  const [editing, setEditing] = useState(false);
  const [statementOpen, setStatementOpen] = useState(false);
  // A record that changed elsewhere (a write's answer, another week's rows, Copy last week) shows
  // its notes, unless the user is typing in the field. Only a change of the record's notes does:
  // a note just typed stays while its save is on its way.
  const [shownSaved, setShownSaved] = useState(saved);
  if (saved !== shownSaved) {
    setShownSaved(saved);
    if (!editing) setNotes(saved);
  }
  // A new record needs create, a change edit, a deselect delete (checked when it is asked for).
  const canChange = record ? permissions.edit || permissions.delete : permissions.create;
  const canWriteNotes = record ? permissions.edit : permissions.create;
  const statementId = `statement-${control.id}`;
  return (
    <>
      <TableRow
        hover
        data-testid={`control-${control.name}`}
        sx={statementOpen ? { '& > td': { borderBottom: 'none' } } : undefined}
      >
        <TableCell>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
            <Tooltip title={statementOpen ? 'Hide statement' : 'Show statement'}>
              <IconButton
                size="small"
                aria-label={`Statement of ${control.name}`}
                aria-expanded={statementOpen}
                aria-controls={statementId}
                onClick={() => setStatementOpen((open) => !open)}
                sx={{ mt: -0.25 }}
              >
                {statementOpen ? <ExpandMoreIcon fontSize="small" /> : <KeyboardArrowRightIcon fontSize="small" />}
              </IconButton>
            </Tooltip>
            <Box>
              <Typography variant="body2" component="span" sx={{ fontWeight: 600, mr: 1 }}>
                {control.name}
              </Typography>
              <Typography variant="body2" component="span">
                {control.title}
              </Typography>
            </Box>
          </Box>
        </TableCell>
        <TableCell>
          <ControlStatusToggle
            controlName={control.name}
            value={record?.status ?? null}
            disabled={!canChange}
            onChange={(status) => {
              if (status === null ? permissions.delete : record ? permissions.edit : permissions.create)
                onChooseStatus(control, status);
            }}
          />
        </TableCell>
        <TableCell>
          <TextField
            size="small"
            fullWidth
            multiline
            maxRows={4}
            placeholder={canWriteNotes ? 'Notes' : undefined}
            value={notes}
            slotProps={{
              htmlInput: {
                'aria-label': `Notes of ${control.name}`,
                maxLength: MAX_CONTROL_NOTES,
                readOnly: !canWriteNotes,
              },
            }}
            onFocus={() => setEditing(true)}
            onChange={(event) => setNotes(event.target.value)}
            onBlur={() => {
              setEditing(false);
              if (canWriteNotes && notes !== saved) onSaveNotes(control, notes);
            }}
          />
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={3} sx={{ py: 0, ...(statementOpen ? {} : { borderBottom: 'none' }) }}>
          <Collapse in={statementOpen} unmountOnExit>
            <Typography
              id={statementId}
              variant="body2"
              color="text.secondary"
              sx={{ whiteSpace: 'pre-wrap', py: 1, pl: 5 }}
            >
              {control.description || 'No statement.'}
            </Typography>
          </Collapse>
        </TableCell>
      </TableRow>
    </>
  );
});

/**
 * On a phone each control reads as a card: its name, then its status toggle (wrapping), then its
 * notes, one under the other, instead of three columns that scroll sideways; the column titles go.
 */
const phoneRows = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    display: 'block',
    '& thead': { display: 'none' },
    '& tbody': { display: 'block' },
    '& tr': { display: 'flex', flexDirection: 'column' },
    '& td': { display: 'block', width: 'auto' },
    '& tr[data-testid] > td:not(:last-of-type)': { borderBottom: 'none', pb: 0 },
    '& .MuiToggleButtonGroup-root': { flexWrap: 'wrap' },
  },
});
