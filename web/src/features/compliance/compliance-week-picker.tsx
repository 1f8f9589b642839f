import dayjs from 'dayjs';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { addDays, complianceWeek, weekStart } from '@cfs/contracts/compliance';

const SHOWN = 'D/MMM/YYYY';

/** "22/Nov/2026 – 28/Nov/2026": the week's first and last day as the portal writes dates. */
export function weekRangeText(start: string): string {
  const { end } = complianceWeek(start);
  return `${dayjs(start).format(SHOWN)} – ${dayjs(end).format(SHOWN)}`;
}

export interface ComplianceWeekPickerProps {
  /** The week's first day, YYYY-MM-DD. */
  value: string;
  onChange: (weekStartDate: string) => void;
}

/**
 * The Compliance Week picker (spec 002 §2, §9: the week runs from its start to its end): any day
 * picked stands for its week, which the calendar shades whole, and the range is written beside it.
 * The arrows step a week back or on. Weeks are calendar dates, never instants, so a week across a
 * daylight-saving change is the same seven days as everywhere else.
 */
export function ComplianceWeekPicker({ value, onChange }: ComplianceWeekPickerProps) {
  const { start, end } = complianceWeek(value);
  const inWeek = (day: dayjs.Dayjs) => {
    const date = day.format('YYYY-MM-DD');
    return date >= start && date <= end;
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Tooltip title="Previous week">
        <IconButton aria-label="Previous week" onClick={() => onChange(addDays(start, -7))}>
          <ChevronLeftIcon />
        </IconButton>
      </Tooltip>
      <LocalizationProvider dateAdapter={AdapterDayjs}>
        <DatePicker
          label="Compliance Week"
          format={SHOWN}
          value={dayjs(start)}
          onChange={(next) => {
            if (next?.isValid()) onChange(weekStart(next.format('YYYY-MM-DD')));
          }}
          slotProps={{
            field: { shouldRespectLeadingZeros: true },
            textField: { size: 'small', sx: { width: 190 } },
            day: (ownerState) => ({
              sx: inWeek(dayjs(ownerState.day))
                ? {
                    borderRadius: 0,
                    backgroundColor: 'action.selected',
                    '&.Mui-selected': { backgroundColor: 'primary.main' },
                  }
                : {},
            }),
          }}
        />
      </LocalizationProvider>
      <Tooltip title="Next week">
        <IconButton aria-label="Next week" onClick={() => onChange(addDays(start, 7))}>
          <ChevronRightIcon />
        </IconButton>
      </Tooltip>
      <Typography variant="body2" color="text.secondary" data-testid="compliance-week-range">
        {weekRangeText(start)}
      </Typography>
    </Box>
  );
}
