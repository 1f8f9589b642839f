import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DesktopDatePicker } from '@mui/x-date-pickers/DesktopDatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import type { SxProps, Theme } from '@mui/material/styles';

/** The day as the portal shows dates (spec 000 §9 "D/MMM/YYYY"), whatever the browser's locale. */
const DAY_FORMAT = 'D/MMM/YYYY';

/**
 * A day of a list filter, held as `YYYY-MM-DD` ('' for none), typed and shown as the portal shows
 * dates rather than in the browser's own order (a native date input shows mm/dd/yyyy). An entry
 * that is not yet a whole day changes nothing. The desktop picker on every screen: on a phone it
 * can be typed into too, where the mobile one only opens its dialog.
 *
 * @example
 *   <DateFilterField label="Created from" value={from} onChange={(day) => setFrom(day)} />
 */
export function DateFilterField({
  label,
  value,
  onChange,
  sx,
}: {
  label: string;
  value: string;
  onChange: (day: string) => void;
  sx?: SxProps<Theme>;
}) {
  const dayOf = (text: string) => (text && dayjs(text, 'YYYY-MM-DD').isValid() ? dayjs(text, 'YYYY-MM-DD') : null);
  // What is typed stays the picker's own until it is a whole day: "2" of the year is 1/Dec/0002 to
  // the picker, and sent to the list it would come back reformatted in the middle of the typing.
  const [typed, setTyped] = useState<Dayjs | null>(() => dayOf(value));
  const [published, setPublished] = useState(value);
  if (value !== published) {
    setPublished(value);
    setTyped(dayOf(value));
  }
  const publish = (day: string) => {
    setPublished(day);
    onChange(day);
  };
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <DesktopDatePicker
        label={label}
        format={DAY_FORMAT}
        value={typed}
        onChange={(next) => {
          setTyped(next);
          if (next === null) publish('');
          else if (next.isValid() && next.year() >= 1000) publish(next.format('YYYY-MM-DD'));
        }}
        slotProps={{ field: { shouldRespectLeadingZeros: true }, textField: { size: 'small', sx } }}
      />
    </LocalizationProvider>
  );
}
