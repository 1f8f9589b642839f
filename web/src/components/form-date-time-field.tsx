import dayjs from 'dayjs';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { DATE_TIME_ENTRY_FORMAT } from '@cfs/contracts/constants';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

export interface FormDateTimeFieldProps<T extends FieldValues, TOut = T> {
  control: Control<T, unknown, TOut>;
  name: Path<T>;
  label: string;
  required?: boolean;
  disabled?: boolean;
  helperText?: string;
  /**
   * Keep an entry that is not a date as the text 'invalid' (instead of null), so that the schema
   * can say so ('Please enter a valid date', spec 002 §5) rather than treat it as left empty.
   */
  keepInvalid?: boolean;
}

/**
 * A date and time picked in the user's local time and held as ISO text in UTC (`…Z`), the form
 * of the contracts' date fields. It is typed as the portal shows dates, "D/MMM/YYYY HH:mm" on a
 * 24-hour clock (spec 000 §9), whatever the browser's locale; empty or an incomplete entry is null, so a required date shows
 * its zod message. In its own file: the date pickers load only with the pages that use them.
 *
 * @example
 *   <FormDateTimeField control={form.control} name="plannedStartTime" label="Planned Start Time" required />
 */
export function FormDateTimeField<T extends FieldValues, TOut = T>({ control, name, label, required, disabled, helperText, keepInvalid }: FormDateTimeFieldProps<T, TOut>) {
  const { field, fieldState } = useController({ control, name });
  const text: unknown = field.value;
  const value = typeof text === 'string' && text !== '' && dayjs(text).isValid() ? dayjs(text) : null;
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <DateTimePicker
        label={label}
        format={DATE_TIME_ENTRY_FORMAT}
        ampm={false}
        value={value}
        disabled={disabled || field.disabled}
        inputRef={field.ref}
        onChange={(next) => field.onChange(next === null ? null : next.isValid() ? next.toISOString() : keepInvalid ? 'invalid' : null)}
        onClose={field.onBlur}
        slotProps={{
          // "5/Mar", not "05/Mar": the day as DATE_FORMAT writes it.
          field: { shouldRespectLeadingZeros: true },
          textField: {
            fullWidth: true,
            margin: 'normal',
            required,
            name: field.name,
            onBlur: field.onBlur,
            error: fieldState.error !== undefined,
            helperText: fieldState.error?.message ?? helperText,
          },
        }}
      />
    </LocalizationProvider>
  );
}
