import Link from '@mui/material/Link';
import AssignmentIcon from '@mui/icons-material/Assignment';
import MoveToInboxIcon from '@mui/icons-material/MoveToInbox';
import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import { EnumDisplay } from '../../components/enum-display';
import { SEVERITY_COLORS, STATE_NAME_LABELS } from './work-unit-display';

/** A state cell; a New unit carries the "(ack)" link (spec 001 §2, §4). */
export function StateCell({
  stateId,
  onAcknowledge,
  busy,
}: {
  stateId: number;
  onAcknowledge?: () => void;
  busy: boolean;
}) {
  return (
    <>
      <EnumDisplay enumType={WORK_UNIT_STATES} value={stateId} labels={STATE_NAME_LABELS} />
      {stateId === WORK_UNIT_STATES.New && onAcknowledge && (
        <>
          {' '}
          <Link
            component="button"
            type="button"
            variant="body2"
            disabled={busy}
            sx={{ verticalAlign: 'baseline' }}
            onClick={(event) => {
              event.stopPropagation();
              onAcknowledge();
            }}
          >
            (ack)
          </Link>
        </>
      )}
    </>
  );
}

/** The cell styles of the severity levels, for the grid's `sx`: `.severity-0` … `.severity-3` (Sev4 plain). */
export const severityCellStyles = Object.fromEntries(
  Object.entries(SEVERITY_COLORS).map(([level, color]) => [
    `& .severity-${level}`,
    { backgroundColor: color.background, color: color.text, fontWeight: 600 },
  ]),
);

export function severityCellClass(severityId: number): string {
  return SEVERITY_COLORS[severityId] ? `severity-${severityId}` : '';
}

/** The Create menu's icons (spec 001 §2: Change Request, Incident, Intake; a plain one for other types). */
export function WorkUnitTypeIcon({ workUnitTypeId }: { workUnitTypeId: number }) {
  switch (workUnitTypeId) {
    case WORK_UNIT_TYPES.Incident:
      return <ReportProblemIcon fontSize="small" />;
    case WORK_UNIT_TYPES.ChangeRequest:
      return <SwapHorizIcon fontSize="small" />;
    case WORK_UNIT_TYPES.Intake:
      return <MoveToInboxIcon fontSize="small" />;
    default:
      return <AssignmentIcon fontSize="small" />;
  }
}
