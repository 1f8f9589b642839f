import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useForm } from 'react-hook-form';
import { WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import { enumOptions } from '../../components/enum-label';
import type { RowSelection } from '../../components/row-selection';
import { useBulkAssign, useBulkState } from './api';
import { PeopleField } from '../../components/people-field';
import type { WorkUnitBulkActions } from './work-unit-bulk-actions';
import { STATE_NAME_LABELS } from './work-unit-display';

const workUnitIdsOf = (selection: RowSelection) => selection.ids.map(Number);

/** Assign or Change State for the selected units, whichever the bulk bar opened. */
export default function WorkUnitBulkDialog({ bulk }: { bulk: WorkUnitBulkActions }) {
  if (bulk.dialog === 'assign') return <BulkAssignDialog bulk={bulk} />;
  if (bulk.dialog === 'state') return <BulkStateDialog bulk={bulk} />;
  return null;
}

function BulkAssignDialog({ bulk }: { bulk: WorkUnitBulkActions }) {
  const assign = useBulkAssign();
  const form = useForm<{ assignedTo: string | null }>({ defaultValues: { assignedTo: null } });
  const submit = form.handleSubmit(async ({ assignedTo }) => {
    const result = await assign.mutateAsync({ workUnitIds: workUnitIdsOf(bulk.selection), assignedTo });
    bulk.closeDialog();
    bulk.outcome.report('Assign', result);
  });
  return (
    <Dialog open onClose={bulk.closeDialog} maxWidth="xs" fullWidth>
      <DialogTitle>Assign</DialogTitle>
      <DialogContent>
        <DialogContentText>{`Assign ${bulk.selection.ids.length} selected work units to:`}</DialogContentText>
        <PeopleField control={form.control} name="assignedTo" label="Assigned To" directory="peopleandgroups" />
      </DialogContent>
      <DialogActions>
        <Button onClick={bulk.closeDialog}>Cancel</Button>
        <Button variant="contained" disabled={assign.isPending} onClick={() => void submit().catch(() => undefined)}>
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const STATE_OPTIONS = enumOptions(WORK_UNIT_STATES, STATE_NAME_LABELS);

function BulkStateDialog({ bulk }: { bulk: WorkUnitBulkActions }) {
  const change = useBulkState();
  const [stateId, setStateId] = useState<number | ''>('');
  const apply = async () => {
    if (stateId === '') return;
    const result = await change.mutateAsync({ workUnitIds: workUnitIdsOf(bulk.selection), stateId });
    bulk.closeDialog();
    bulk.outcome.report('Change State', result);
  };
  return (
    <Dialog open onClose={bulk.closeDialog} maxWidth="xs" fullWidth>
      <DialogTitle>Change State</DialogTitle>
      <DialogContent>
        {/* Each unit is held to the state rules (spec 001 §4); those refused are listed afterwards. */}
        <DialogContentText>{`Move ${bulk.selection.ids.length} selected work units to:`}</DialogContentText>
        <TextField
          select
          fullWidth
          margin="normal"
          label="State"
          value={stateId}
          onChange={(event) => setStateId(Number(event.target.value))}
        >
          {STATE_OPTIONS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={bulk.closeDialog}>Cancel</Button>
        <Button
          variant="contained"
          disabled={stateId === '' || change.isPending}
          onClick={() => void apply().catch(() => undefined)}
        >
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}
