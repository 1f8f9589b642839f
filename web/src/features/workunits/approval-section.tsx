import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import type { WorkUnit } from '@cfs/contracts/work-units';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { approvalEntries, type ApprovalEntry } from './approvals';
import { useApproval } from './use-approval';
import { PersonLabel } from '../../components/person-label';

/** Approver 1 and 2 of a saved change request (spec 001 §2 "Change request approval"). */
export function ApprovalSection({ unit, onUpdated }: { unit: WorkUnit; onUpdated: (unit: WorkUnit) => void }) {
  const entries = approvalEntries(unit);
  if (entries.length === 0) return null;
  return (
    <Box component="section" aria-label="Approvals" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3">
        Approvals
      </Typography>
      {entries.map((entry) => (
        <ApprovalRow key={entry.approver} entry={entry} unit={unit} onUpdated={onUpdated} />
      ))}
    </Box>
  );
}

function ApprovalRow({
  entry,
  unit,
  onUpdated,
}: {
  entry: ApprovalEntry;
  unit: WorkUnit;
  onUpdated: (unit: WorkUnit) => void;
}) {
  const approval = useApproval(entry, unit, onUpdated);
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'flex-start', py: 1 }}
      data-testid={`approver-${entry.approver}`}
    >
      {entry.status === 'pending' && <HourglassEmptyIcon color="action" titleAccess="Pending" />}
      {entry.status === 'approved' && <CheckCircleIcon color="success" titleAccess="Approved" />}
      {entry.status === 'declined' && <CancelIcon color="error" titleAccess="Declined" />}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2">
          Approver {entry.approver}: {approval.displayName}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {entry.status === 'pending' && 'Pending approval'}
          {entry.status === 'approved' && (
            <>
              Approved by <PersonLabel value={entry.decidedBy} />
            </>
          )}
          {entry.status === 'declined' && (
            <>
              Declined by <PersonLabel value={entry.decidedBy} />
            </>
          )}
        </Typography>
        {entry.status === 'declined' && entry.notes && (
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            Notes: {entry.notes}
          </Typography>
        )}
      </Box>
      {approval.canDecide && (
        <Stack direction="row" spacing={1}>
          <Button size="small" variant="contained" color="success" disabled={approval.busy} onClick={approval.approve}>
            Approve
          </Button>
          <Button
            size="small"
            variant="outlined"
            color="error"
            disabled={approval.busy}
            onClick={approval.startDecline}
          >
            Decline
          </Button>
        </Stack>
      )}
      <ConfirmDialog
        open={approval.declining}
        title="Decline Change Request"
        text="Declining cancels this change request. Please give your reasons."
        input={{ label: 'Notes', multiline: true }}
        confirmLabel="Decline"
        onConfirm={approval.decline}
        onCancel={approval.cancelDecline}
      />
    </Stack>
  );
}
