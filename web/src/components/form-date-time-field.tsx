import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import Box from '@mui/material/Box';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { DATE_TIME_ENTRY_FORMAT } from '@cfs/contracts/constants';
import { INVALID_DATE } from '@cfs/contracts/values/fields';
import type { FieldValues } from 'react-hook-form';
import { useLabelledField, type LabelledFieldProps } from './form-fields';

export type FormDateTimeFieldProps<T extends FieldValues, TOut = T> = LabelledFieldProps<T, TOut>;

/** The characters between the sections of DATE_TIME_ENTRY_FORMAT, which people type as they read them. */
const SEPARATORS = new Set([' ', '/', ':', '-', '.']);

/**
 * Lets a date be typed as it is shown ("1/Dec/2026 15:30", "01122026 1530"): a separator after a
 * section the field has already left (it moves on by itself once a section is complete) is dropped,
 * and one typed in a section still open ("1" of the day) moves to the next section. The field alone
 * would take the separator as a character of the next section and garble it (the hours of
 * "01122026 1530" became 01:00).
 */
function useSeparatorTyping() {
  const lastTypedIn = useRef<string | null>(null);
  return (event: KeyboardEvent<HTMLElement>) => {
    const section = event.target instanceof HTMLElement ? event.target.getAttribute('aria-label') : null;
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!SEPARATORS.has(event.key)) {
      lastTypedIn.current = section;
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    if (section !== null && section === lastTypedIn.current) {
      lastTypedIn.current = null;
      event.target.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    }
  };
}

/**
 * A date and time picked in the user's local time and held as ISO text in UTC (`…Z`), the form
 * of the contracts' date fields. It is typed as the portal shows dates, "D/MMM/YYYY HH:mm" on a
 * 24-hour clock (spec 000 §9), whatever the browser's locale, with or without the separators
 * (`useSeparatorTyping`). Empty is null, so a required date shows its zod message; an incomplete or
 * impossible entry is kept as the text 'invalid', which the contracts' date fields answer with
 * 'Please enter a valid date' (spec 002 §5), so it is never saved as empty. In its own file: the
 * date pickers load only with the pages that use them.
 *
 * @example
 *   <FormDateTimeField control={form.control} name="plannedStartTime" label="Planned Start Time" required />
 */
export function FormDateTimeField<T extends FieldValues, TOut = T>(props: FormDateTimeFieldProps<T, TOut>) {
  const { label, required } = props;
  const { field, error, message, disabled } = useLabelledField(props);
  // The entry behind 'invalid', given back to the picker so that what was typed stays on screen.
  const [typed, setTyped] = useState<Dayjs | null>(null);
  const onKeyDownCapture = useSeparatorTyping();
  const input = useRef<HTMLInputElement | null>(null);
  // What the field holds now, whoever set it last. The check after each key runs on a timer, and a
  // busy page runs the keys first and their timers after them: by then a later key may have
  // published the whole date, which the value a render saw would not show.
  const held = useRef<unknown>(field.value);
  useLayoutEffect(() => {
    held.current = field.value;
  }, [field.value]);
  const publish = (next: string | null) => {
    held.current = next;
    field.onChange(next);
  };
  // The field publishes nothing while a date that was empty is typed in part (its sections are
  // filled one by one): the form would hold it as empty. After each key the entry shown decides:
  // some digits and no date are an invalid entry; no digit at all is empty again.
  const onKeyUpCapture = () =>
    window.setTimeout(() => {
      const shown = input.current?.value ?? '';
      const current = held.current;
      const hasDate = typeof current === 'string' && current !== '' && current !== INVALID_DATE;
      if (!hasDate && /\d/.test(shown) && current !== INVALID_DATE) publish(INVALID_DATE);
      else if (current === INVALID_DATE && !/\d/.test(shown)) publish(null);
    }, 0);
  const text: unknown = field.value;
  const value =
    text === INVALID_DATE
      ? typed
      : typeof text === 'string' && text !== '' && dayjs(text).isValid()
        ? dayjs(text)
        : null;
  return (
    <Box onKeyDownCapture={onKeyDownCapture} onKeyUpCapture={onKeyUpCapture}>
      <LocalizationProvider dateAdapter={AdapterDayjs}>
        <DateTimePicker
          label={label}
          format={DATE_TIME_ENTRY_FORMAT}
          ampm={false}
          value={value}
          disabled={disabled}
          inputRef={(element: HTMLInputElement | null) => {
            field.ref(element);
            input.current = element;
          }}
          onChange={(next) => {
            setTyped(next);
            publish(next === null ? null : next.isValid() ? next.toISOString() : INVALID_DATE);
          }}
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
              error,
              helperText: message,
            },
          }}
        />
      </LocalizationProvider>
    </Box>
  );
}
