import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { getContrastRatio } from '@mui/material/styles';
import {
  CONTROL_STATUS_COLORS,
  CONTROL_STATUS_LABELS,
  CONTROL_STATUSES,
  type ControlStatusValue,
} from '@cfs/contracts/compliance';

/** White or near-black text, whichever reads better on the status colour (amber takes dark text). */
function textOn(hex: string): string {
  return getContrastRatio(hex, '#fff') >= 3 ? '#fff' : 'rgba(0, 0, 0, 0.87)';
}

/** The chosen status filled with its colour (spec 002 §9); the others show theirs as a mark on the left. */
const toggleSx = Object.fromEntries(
  CONTROL_STATUSES.map((status) => {
    const { hex } = CONTROL_STATUS_COLORS[status];
    return [
      `& .status-${status}`,
      {
        borderLeft: `4px solid ${hex}`,
        '&.Mui-selected, &.Mui-selected:hover': { backgroundColor: hex, color: textOn(hex), borderColor: hex },
      },
    ];
  }),
);

export interface ControlStatusToggleProps {
  /** The control's name, for the group's accessible name ("Status of AC-2"). */
  controlName: string;
  value: ControlStatusValue | null;
  /** A status, or null when the chosen one is clicked again. */
  onChange: (status: ControlStatusValue | null) => void;
  disabled?: boolean;
}

/** The five-choice status toggle of a control (spec 002 §2, §9 colours). */
export function ControlStatusToggle({ controlName, value, onChange, disabled }: ControlStatusToggleProps) {
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={value}
      disabled={disabled}
      aria-label={`Status of ${controlName}`}
      onChange={(_event, next: ControlStatusValue | null) => onChange(next)}
      sx={{ ...toggleSx, '& .MuiToggleButton-root': { py: 0.25, px: 1, whiteSpace: 'nowrap', textTransform: 'none' } }}
    >
      {CONTROL_STATUSES.map((status) => (
        <ToggleButton
          key={status}
          value={status}
          className={`status-${status}`}
          aria-label={CONTROL_STATUS_LABELS[status]}
        >
          {CONTROL_STATUS_LABELS[status]}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
