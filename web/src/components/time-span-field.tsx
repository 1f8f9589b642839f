import { useState } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FieldValues } from 'react-hook-form';
import { useLabelledField, type LabelledFieldProps } from './form-fields';

export interface TimeSpanFieldProps<T extends FieldValues, TOut = T> extends LabelledFieldProps<T, TOut> {
  /** Tighter, for a field inside a row (a condition's value). */
  size?: 'small' | 'medium';
}

const PARTS = ['Hours', 'Minutes', 'Seconds'] as const;

/** `HH:mm:ss` text as its three numbers (hours may pass 99); empty text is three empty boxes. */
export function timeSpanParts(text: unknown): [string, string, string] {
  const match = typeof text === 'string' ? /^(\d+):(\d+):(\d+)$/.exec(text.trim()) : null;
  return match ? [String(Number(match[1])), String(Number(match[2])), String(Number(match[3]))] : ['', '', ''];
}

/** The three numbers as `HH:mm:ss`; all three empty is '' (a required span then shows its message). */
export function timeSpanText(parts: readonly string[]): string {
  if (parts.every((part) => part.trim() === '')) return '';
  const [hours = 0, minutes = 0, seconds = 0] = parts.map((part) => Math.max(0, Math.floor(Number(part) || 0)));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(hours)}:${pad(Math.min(minutes, 59))}:${pad(Math.min(seconds, 59))}`;
}

/**
 * A time span (spec 002 §5 "a time-span picker": a rule's lifetime, a condition on the time since
 * the last packet) picked as hours, minutes and seconds and held as the API's `HH:mm:ss` text.
 * Its own component because the date pickers' time field stops at 23:59:59, and a span does not.
 *
 * @example
 *   <TimeSpanField control={form.control} name="matchLifetime" label="Lifetime" required helperText="Must be at least 5 minutes." />
 */
export function TimeSpanField<T extends FieldValues, TOut = T>({
  size = 'medium',
  ...props
}: TimeSpanFieldProps<T, TOut>) {
  const { label, required } = props;
  const { field, error, message, disabled } = useLabelledField(props);
  // The boxes as typed (one may be empty while the others are not), as long as they still say the
  // field's value; a value set from outside (a reset, another rule loaded) shows as its numbers.
  const [typed, setTyped] = useState<[string, string, string]>(() => timeSpanParts(field.value));
  const parts = timeSpanText(typed) === field.value ? typed : timeSpanParts(field.value);
  return (
    <FormControl
      component="fieldset"
      error={error}
      disabled={disabled}
      margin={size === 'small' ? 'none' : 'normal'}
      aria-label={label}
    >
      <FormLabel component="legend" required={required} sx={{ fontSize: '0.8rem' }}>
        {label}
      </FormLabel>
      <Stack direction="row" spacing={1} sx={{ mt: 0.5 }}>
        {PARTS.map((part, index) => (
          <TextField
            key={part}
            type="number"
            size="small"
            label={part}
            value={parts[index]}
            disabled={disabled}
            error={error}
            inputRef={index === 0 ? field.ref : undefined}
            onBlur={field.onBlur}
            onChange={(event) => {
              const next: [string, string, string] = [...parts];
              next[index] = event.target.value;
              setTyped(next);
              field.onChange(timeSpanText(next));
            }}
            slotProps={{
              htmlInput: { min: 0, max: index === 0 ? 9999 : 59, 'aria-label': `${label} ${part.toLowerCase()}` },
            }}
            sx={{ width: size === 'small' ? 76 : 96 }}
          />
        ))}
      </Stack>
      {message && <FormHelperText>{message}</FormHelperText>}
    </FormControl>
  );
}
