import dayjs from 'dayjs';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { TimeField } from '@mui/x-date-pickers/TimeField';
import { TIME_FORMAT } from '@cfs/contracts/constants';
import { useController, type Control, type Path } from 'react-hook-form';
import type { RuleValues } from '@cfs/contracts/rules';
import { FormDateTimeField } from '../../components/form-date-time-field';
import type { RuleFormValues } from './rule-form-values';

type Props = { control: Control<RuleFormValues, unknown, RuleValues>; name: Path<RuleFormValues>; label: string };

/** The time limitations' zone, from the IANA list (America/New_York first, the default). */
export function TimeZoneField({ control, name, label, zones }: Props & { zones: readonly string[] }) {
  const { field, fieldState } = useController({ control, name });
  const value = typeof field.value === 'string' && field.value !== '' ? field.value : null;
  return (
    <Autocomplete
      options={zones}
      value={value}
      onChange={(_event, next) => field.onChange(next ?? '')}
      onBlur={field.onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required
          margin="normal"
          inputRef={field.ref}
          error={fieldState.error !== undefined}
          helperText={fieldState.error?.message}
        />
      )}
    />
  );
}

/** A time of day as `HH:mm:ss` (the daily window's start or end); empty is null. */
export function DailyTimeField({ control, name, label }: Props) {
  const { field, fieldState } = useController({ control, name });
  const value = typeof field.value === 'string' && field.value !== '' ? dayjs(`2000-01-01T${field.value}`) : null;
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <TimeField
        label={label}
        format={TIME_FORMAT}
        ampm={false}
        value={value && value.isValid() ? value : null}
        inputRef={field.ref}
        onChange={(next) =>
          field.onChange(next === null ? null : next.isValid() ? next.format(TIME_FORMAT) : 'invalid')
        }
        slotProps={{
          textField: {
            margin: 'normal',
            fullWidth: true,
            name: field.name,
            onBlur: field.onBlur,
            error: fieldState.error !== undefined,
            helperText: fieldState.error?.message,
          },
        }}
      />
    </LocalizationProvider>
  );
}

/**
 * A day of the date range, held as ISO text in UTC. An entry that is not a date is kept as such,
 * so the schema answers 'Please enter a valid date' (spec 002 §5) instead of dropping it.
 */
export function RangeDateField({ control, name, label }: Props) {
  return <FormDateTimeField control={control} name={name} label={label} />;
}
