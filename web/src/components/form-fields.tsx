import { useEffect, useState, type ReactNode } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useSubscriptionOptions, useTenantOptions } from '../lib/lookups';
import { subscribeToUserChange } from './form-dependency';

/**
 * react-hook-form fields in MUI dress. Each takes the form's `control` and a typed `name`, shows
 * the zod message of its field (the contracts' texts) and nothing else: labels, layout and which
 * fields a form has stay explicit in the area's form.
 *
 * @example
 *   const form = useSchemaForm(locationInputSchema, defaultValues);
 *   <FormTextField control={form.control} name="name" label="Name" required />
 *   <FormSelectField control={form.control} name="tenantId" label="Tenant" options={tenantOptions} />
 */

export interface FieldOption {
  value: string | number;
  label: string;
}

interface FieldBaseProps<T extends FieldValues, TOut> {
  control: Control<T, unknown, TOut>;
  name: Path<T>;
}

/** What a field of its own making (a date, a time span, a person) takes besides its own options. */
export interface LabelledFieldProps<T extends FieldValues, TOut = T> extends FieldBaseProps<T, TOut> {
  label: string;
  required?: boolean;
  disabled?: boolean;
  helperText?: string;
}

/**
 * What a field not built on a TextField (a checkbox, a date, a time span, a person) shows, worked
 * out once: the controller's `field`, whether the field is in error, the text under it (the zod
 * message, else `helperText`) and whether it is disabled (by its props or by the form).
 */
export function useLabelledField<T extends FieldValues, TOut = T>({
  control,
  name,
  disabled,
  helperText,
}: FieldBaseProps<T, TOut> & { disabled?: boolean; helperText?: ReactNode }) {
  const { field, fieldState } = useController({ control, name });
  return {
    field,
    error: fieldState.error !== undefined,
    message: fieldState.error?.message ?? helperText,
    disabled: disabled || field.disabled,
  };
}

export type FormTextFieldProps<T extends FieldValues, TOut = T> = FieldBaseProps<T, TOut> &
  Omit<TextFieldProps, 'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error' | 'select' | 'children'>;

/** A text box; with `type="number"` the value is a number, or null when empty. */
export function FormTextField<T extends FieldValues, TOut = T>({
  control,
  name,
  helperText,
  type,
  ...rest
}: FormTextFieldProps<T, TOut>) {
  const { field, fieldState } = useController({ control, name });
  return (
    <TextField
      fullWidth
      margin="normal"
      {...rest}
      type={type}
      name={field.name}
      inputRef={field.ref}
      value={field.value ?? ''}
      disabled={field.disabled || rest.disabled}
      onBlur={field.onBlur}
      onChange={(event) => {
        const text = event.target.value;
        field.onChange(type === 'number' ? (text === '' ? null : Number(text)) : text);
      }}
      error={fieldState.error !== undefined}
      helperText={fieldState.error?.message ?? helperText}
    />
  );
}

export type FormSelectFieldProps<T extends FieldValues, TOut = T> = FormTextFieldProps<T, TOut> & {
  options: readonly FieldOption[];
  /** Adds an empty choice with this label; choosing it sets null. */
  emptyLabel?: string;
  /**
   * Called after the user picks a different value (not on `reset`/`setValue`): for what a choice
   * sets off, e.g. clearing a dependent field or asking a question (spec 001 §4 assignment group).
   */
  onValueChange?: (value: string | number | null, previous: unknown) => void;
  /** Called as the list opens: for choices that change while the form is open (asked again then). */
  onOpen?: () => void;
  /** Shown in an open list without options (else the list opens empty). */
  noOptionsText?: string;
};

/** A drop-down over fixed options; the value keeps the option's type (number or text). */
export function FormSelectField<T extends FieldValues, TOut = T>({
  control,
  name,
  options,
  emptyLabel,
  helperText,
  onValueChange,
  onOpen,
  noOptionsText,
  ...rest
}: FormSelectFieldProps<T, TOut>) {
  const { field, fieldState } = useController({ control, name });
  const selected = options.find((option) => option.value === field.value);
  return (
    <TextField
      fullWidth
      margin="normal"
      {...rest}
      select
      name={field.name}
      inputRef={field.ref}
      // MUI matches the value against the options; keep the option's own value, '' for none.
      value={selected ? String(selected.value) : ''}
      onBlur={field.onBlur}
      onChange={(event) => {
        const option = options.find((candidate) => String(candidate.value) === event.target.value);
        const value = option ? option.value : null;
        const previous: unknown = field.value;
        field.onChange(value);
        if (onValueChange && value !== previous) onValueChange(value, previous);
      }}
      error={fieldState.error !== undefined}
      helperText={fieldState.error?.message ?? helperText}
      {...(onOpen ? { slotProps: { ...rest.slotProps, select: { ...rest.slotProps?.select, onOpen } } } : {})}
    >
      {noOptionsText !== undefined && options.length === 0 && emptyLabel === undefined && (
        <MenuItem value="" disabled>
          <em>{noOptionsText}</em>
        </MenuItem>
      )}
      {emptyLabel !== undefined && (
        <MenuItem value="">
          <em>{emptyLabel}</em>
        </MenuItem>
      )}
      {options.map((option) => (
        <MenuItem key={String(option.value)} value={String(option.value)}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * The Tenant of an item that may belong to none: none is offered to every tenant and kept by the
 * users of all tenants (locations, packages, protocols, rules, actions).
 */
export function FormTenantField<T extends FieldValues, TOut = T>(
  props: Omit<FormSelectFieldProps<T, TOut>, 'options' | 'emptyLabel' | 'label'>,
) {
  return <FormSelectField label="Tenant" {...props} options={useTenantOptions()} emptyLabel="None (every tenant)" />;
}

/**
 * The Subscription of an item, among the subscriptions of its tenant (`tenantId`, which the form
 * usually watches): blocks, devices, rules.
 */
export function FormSubscriptionField<T extends FieldValues, TOut = T>({
  tenantId,
  ...props
}: Omit<FormSelectFieldProps<T, TOut>, 'options' | 'label'> & { tenantId: string | null | undefined }) {
  return <FormSelectField label="Subscription" {...props} options={useSubscriptionOptions(tenantId)} />;
}

export interface FormCheckboxFieldProps<T extends FieldValues, TOut = T> extends FieldBaseProps<T, TOut> {
  label: ReactNode;
  disabled?: boolean;
  helperText?: ReactNode;
}

export function FormCheckboxField<T extends FieldValues, TOut = T>({
  label,
  ...props
}: FormCheckboxFieldProps<T, TOut>) {
  const { field, error, message, disabled } = useLabelledField(props);
  return (
    <FormControl error={error} disabled={disabled} margin="dense">
      <FormControlLabel
        label={label}
        control={
          <Checkbox
            name={field.name}
            slotProps={{ input: { ref: field.ref } }}
            checked={field.value === true}
            onBlur={field.onBlur}
            onChange={(event) => field.onChange(event.target.checked)}
          />
        }
      />
      {message && <FormHelperText>{message}</FormHelperText>}
    </FormControl>
  );
}

export interface CheckboxGroupFieldProps<T extends FieldValues, TOut = T> extends FieldBaseProps<T, TOut> {
  label: ReactNode;
  options: readonly FieldOption[];
  /**
   * The field this group depends on: when the user changes its chosen value, the group's
   * selection is cleared (spec 000 §5), e.g. subcategories that belong to the chosen category.
   * `reset` and `setValue` leave the selection as they set it.
   */
  dependsOn?: Path<T>;
  disabled?: boolean;
  row?: boolean;
}

/** Several checkboxes holding one array of the chosen option values. */
export function CheckboxGroupField<T extends FieldValues, TOut = T>({
  control,
  name,
  label,
  options,
  dependsOn,
  disabled,
  row,
}: CheckboxGroupFieldProps<T, TOut>) {
  const { field, fieldState } = useController({ control, name });
  const chosen: readonly unknown[] = Array.isArray(field.value) ? field.value : [];
  const { onChange } = field;

  // Only the user's change of the dependency clears: a `reset` that loads a saved record brings
  // its own selection along.
  useEffect(
    () => (dependsOn ? subscribeToUserChange(control, dependsOn, () => onChange([])) : undefined),
    [control, dependsOn, onChange],
  );

  const toggle = (value: string | number, checked: boolean) => {
    const rest = chosen.filter((item) => item !== value);
    field.onChange(checked ? [...rest, value] : rest);
  };

  return (
    <FormControl
      component="fieldset"
      error={fieldState.error !== undefined}
      disabled={disabled || field.disabled}
      margin="normal"
    >
      <FormLabel component="legend">{label}</FormLabel>
      <FormGroup row={row}>
        {options.map((option) => (
          <FormControlLabel
            key={String(option.value)}
            label={option.label}
            control={
              <Checkbox
                checked={chosen.includes(option.value)}
                onBlur={field.onBlur}
                onChange={(event) => toggle(option.value, event.target.checked)}
              />
            }
          />
        ))}
      </FormGroup>
      {fieldState.error?.message && <FormHelperText>{fieldState.error.message}</FormHelperText>}
    </FormControl>
  );
}

export interface FormChipsFieldProps<T extends FieldValues, TOut = T> extends FieldBaseProps<T, TOut> {
  label: ReactNode;
  helperText?: ReactNode;
  placeholder?: string;
  /** Suggestions; any other text may be entered too. */
  options?: readonly string[];
  disabled?: boolean;
}

/**
 * Several short texts as chips, holding a `string[]`: Enter, a comma or leaving the box adds the
 * typed text; duplicates and blanks are dropped. For the spec's comma-separated lists (tenant
 * assignment groups): map the array to and from the comma text in the area's form.
 *
 * @example
 *   <FormChipsField control={form.control} name="assignmentGroups" label="Assignment Groups" />
 */
export function FormChipsField<T extends FieldValues, TOut = T>({
  control,
  name,
  label,
  helperText,
  placeholder,
  options = [],
  disabled,
}: FormChipsFieldProps<T, TOut>) {
  const { field, fieldState } = useController({ control, name });
  const [input, setInput] = useState('');
  const value: string[] = Array.isArray(field.value)
    ? field.value.filter((item: unknown): item is string => typeof item === 'string')
    : [];
  const commit = (texts: readonly string[]) => field.onChange(uniqueTexts([...value, ...texts]));
  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      options={options}
      value={value}
      disabled={disabled || field.disabled}
      inputValue={input}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input' && text.includes(',')) {
          commit(text.split(','));
          setInput('');
        } else setInput(text);
      }}
      onChange={(_event, next) => field.onChange(uniqueTexts(next))}
      onBlur={() => {
        if (input.trim()) commit([input]);
        setInput('');
        field.onBlur();
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          fullWidth
          margin="normal"
          label={label}
          name={field.name}
          inputRef={field.ref}
          placeholder={value.length === 0 ? placeholder : undefined}
          error={fieldState.error !== undefined}
          helperText={fieldState.error?.message ?? helperText}
        />
      )}
    />
  );
}

function uniqueTexts(texts: readonly string[]): string[] {
  return [...new Set(texts.map((text) => text.trim()).filter(Boolean))];
}
