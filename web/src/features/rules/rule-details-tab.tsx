import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useController, useWatch, type UseFormReturn } from 'react-hook-form';
import { RULE_CLOSES_ON, RULE_CLOSES_ON_LABELS, RULE_MESSAGES, type RuleValues } from '@cfs/contracts/rules';
import {
  CheckboxGroupField,
  FormCheckboxField,
  FormSelectField,
  FormSubscriptionField,
  FormTenantField,
  FormTextField,
  type FieldOption,
} from '../../components/form-fields';
import { TimeSpanField } from '../../components/time-span-field';
import { useRuleTypes, useTimeZones } from './api';
import { RecoveryDroppedAlert } from './rule-conditions-tab';
import { DAY_NAMES, recoverable, recoveryDropped, withTenantCondition, type RuleFormValues } from './rule-form-values';
import { DailyTimeField, RangeDateField, TimeZoneField } from './rule-time-fields';

type Form = UseFormReturn<RuleFormValues, unknown, RuleValues>;

const CLOSES_ON_OPTIONS: FieldOption[] = RULE_CLOSES_ON.map((value) => ({
  value,
  label: RULE_CLOSES_ON_LABELS[value],
}));
const DAY_OPTIONS: FieldOption[] = DAY_NAMES.map((name, day) => ({ value: day, label: name.slice(0, 3) }));
const MONTH_DAYS = Array.from({ length: 31 }, (_, index) => String(index + 1));

/** Details (spec 002 §2, §5): name, type, tenant and subscription, lifetime, and the time limitations. */
export function RuleDetailsTab({ form }: { form: Form }) {
  const { control } = form;
  const tenantId = useWatch({ control, name: 'tenantId' });
  const timeLimited = useWatch({ control, name: 'timeLimited' });
  const [ruleTypeId, conditions, closesOn] = useWatch({ control, name: ['ruleTypeId', 'conditions', 'closesOn'] });
  const recovers = recoverable({ ruleTypeId, conditions }) && closesOn === 'recovery';
  const ruleTypes: FieldOption[] = (useRuleTypes().data ?? []).map((type) => ({ value: type.id, label: type.name }));
  const zones = useTimeZones().data ?? [];

  // Spec 002 §5: choosing a tenant adds the fixed first condition, clearing it removes it; a
  // subscription of the tenant before goes with it.
  const changeTenant = (next: string | number | null) => {
    const tenant = typeof next === 'string' ? next : null;
    form.setValue('conditions', withTenantCondition(form.getValues('conditions'), tenant), { shouldDirty: true });
    form.setValue('subscriptionId', null, { shouldDirty: true });
  };

  return (
    <>
      <FormTextField control={control} name="name" label="Name" required autoFocus />
      <FormTextField control={control} name="description" label="Description" multiline minRows={2} />
      <FormSelectField control={control} name="ruleTypeId" label="Rule Type" options={ruleTypes} required />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormTenantField control={control} name="tenantId" onValueChange={changeTenant} />
        <FormSubscriptionField
          control={control}
          name="subscriptionId"
          tenantId={tenantId}
          emptyLabel="None"
          disabled={!tenantId}
        />
      </Stack>
      {recoverable({ ruleTypeId, conditions }) && (
        <FormSelectField
          control={control}
          name="closesOn"
          label="A Match Closes When"
          options={CLOSES_ON_OPTIONS}
          helperText={
            recovers
              ? 'It stays open while its conditions hold, and closes when the recovery conditions (Conditions tab) hold, or when no packet comes for the lifetime ("no data").'
              : 'It closes when its lifetime runs out, even if the problem is still there.'
          }
        />
      )}
      {recoveryDropped({ ruleTypeId, conditions, closesOn }) && <RecoveryDroppedAlert />}
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 3 }}>
        <TimeSpanField
          control={control}
          name="matchLifetime"
          label="Lifetime"
          required
          helperText={
            recovers
              ? `No packet for this long closes a match as no data. ${RULE_MESSAGES.lifetimeMinimum}`
              : RULE_MESSAGES.lifetimeMinimum
          }
        />
        {recovers ? (
          <TimeSpanField
            control={control}
            name="pendingFor"
            label="Pending For"
            helperText="How long the conditions must hold before a match opens; empty: at once."
          />
        ) : (
          <FormCheckboxField control={control} name="useSlidingExpiration" label="Sliding Expiration" />
        )}
        <FormCheckboxField control={control} name="enabled" label="Enabled" />
      </Stack>
      <TimeLimitationsSwitch form={form} />
      {timeLimited && (
        <Paper variant="outlined" sx={{ p: 2, mt: 1 }}>
          <Typography variant="subtitle2">Time Limitations</Typography>
          <TimeZoneField control={control} name="time.TimeZoneId" label="Time Zone" zones={zones} />
          <CheckboxGroupField control={control} name="time.DaysOfWeek" label="Days of Week" options={DAY_OPTIONS} row />
          <DaysOfMonthField form={form} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <DailyTimeField control={control} name="time.DailyStartTime" label="Daily Start Time" />
            <DailyTimeField control={control} name="time.DailyEndTime" label="Daily End Time" />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <RangeDateField control={control} name="time.StartRange" label="Start Date" />
            <RangeDateField control={control} name="time.EndRange" label="End Date" />
          </Stack>
        </Paper>
      )}
    </>
  );
}

/** The switch, with the Maintenance rule's message under it ('Time limitations are required for Maintenance rules.'). */
function TimeLimitationsSwitch({ form }: { form: Form }) {
  const { field, fieldState } = useController({ control: form.control, name: 'timeLimited' });
  return (
    <FormControl error={fieldState.error !== undefined} margin="dense" sx={{ display: 'block' }}>
      <FormControlLabel
        label="Time Limitations"
        control={
          <Switch
            checked={field.value}
            onChange={(event) => field.onChange(event.target.checked)}
            onBlur={field.onBlur}
            slotProps={{ input: { ref: field.ref } }}
          />
        }
      />
      {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
    </FormControl>
  );
}

/** Days of month 1 to 31 (spec 002 §9), kept as the API's comma list. */
function DaysOfMonthField({ form }: { form: Form }) {
  const { field, fieldState } = useController({ control: form.control, name: 'time.DaysOfMonth' });
  const chosen = field.value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return (
    <TextField
      select
      fullWidth
      margin="normal"
      label="Days of Month"
      value={chosen}
      inputRef={field.ref}
      onBlur={field.onBlur}
      error={fieldState.error !== undefined}
      helperText={fieldState.error?.message ?? 'None chosen: every day of the month.'}
      slotProps={{
        select: {
          multiple: true,
          renderValue: (selected) => (selected as string[]).join(', '),
          onChange: (event) => {
            const value = event.target.value as string[] | string;
            const days = (typeof value === 'string' ? value.split(',') : value).map(Number).sort((a, b) => a - b);
            field.onChange(days.join(','));
          },
        },
      }}
    >
      {MONTH_DAYS.map((day) => (
        <MenuItem key={day} value={day}>
          {day}
        </MenuItem>
      ))}
    </TextField>
  );
}
