import { useState } from 'react';
import AssignmentIndIcon from '@mui/icons-material/AssignmentIndOutlined';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import { BulkResultDialog, useBulkOutcome } from '../../components/bulk-result-dialog';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import type { ToolbarMenuItem } from '../../components/resource-grid-toolbar';
import { useRowSelection } from '../../components/row-selection';

type BulkDialog = 'assign' | 'state' | null;
const NOUN = { one: 'work unit', many: 'work units' };

/** The work units grid's selection and its bulk actions: Assign and Change State (with the edit permission). */
export function useWorkUnitBulkActions(canEdit: boolean) {
  const selection = useRowSelection();
  const outcome = useBulkOutcome(selection, NOUN);
  const [dialog, setDialog] = useState<BulkDialog>(null);
  const actions: ToolbarMenuItem[] = canEdit
    ? [
        { label: 'Assign', icon: <AssignmentIndIcon />, onClick: () => setDialog('assign') },
        { label: 'Change State', icon: <SyncAltIcon />, onClick: () => setDialog('state') },
      ]
    : [];
  return {
    grid: { selection, idField: 'workUnitId', actions },
    selection,
    outcome,
    dialog,
    closeDialog: () => setDialog(null),
  };
}

export type WorkUnitBulkActions = ReturnType<typeof useWorkUnitBulkActions>;

// The dialogs and their form load when one first opens.
const WorkUnitBulkDialog = lazyWhenOpened(
  () => import('./work-unit-bulk-dialogs'),
  (props) => props.bulk.dialog !== null,
);

export function WorkUnitBulkDialogs({ bulk }: { bulk: WorkUnitBulkActions }) {
  return (
    <>
      <WorkUnitBulkDialog bulk={bulk} />
      <BulkResultDialog outcome={bulk.outcome} describe={(id) => `Work unit #${String(id)}`} />
    </>
  );
}
