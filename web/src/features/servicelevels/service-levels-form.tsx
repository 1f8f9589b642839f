import { useMemo, useState, type ReactNode } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { useController, useFieldArray, useWatch, type Control } from 'react-hook-form';
import { DateFilterField } from '../../components/date-filter-field';
import { FormActions } from '../../components/form-actions';
import { CheckboxGroupField, FormCheckboxField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { SERVER_ROOT_ERROR } from '../../components/form-server-errors';
import { ApiError } from '../../lib/api-client';
import { formatDate } from '../../lib/dates';
import { useWorkUnitTypesLookup } from '../../lib/lookups';
import { useSaveServiceLevels, type ServiceLevelsAnswer } from './api';
import {
  DEFAULT_RANGE,
  PAUSE_STATE_OPTIONS,
  serviceLevelsFormSchema,
  serviceLevelsFormValues,
  serviceLevelsServerErrorPath,
  severityLabel,
  TARGET_ROWS,
  toServiceLevelsInput,
  WEEKDAY_ORDER,
  weekdayName,
  workUnitTypeLabel,
  type ServiceLevelsFormValues,
} from './service-levels-form-values';

type FormControl = Control<ServiceLevelsFormValues, unknown, ServiceLevelsFormValues>;

/** The engine takes up to 28 ranges a week: four a day. */
const RANGES_PER_DAY = 4;

/** The two times of a day's range of hours, with their labels. */
const RANGE_ENDS = [
  ['start', 'Start'],
  ['end', 'End'],
] as const;

/** The zones the browser knows, UTC first (the list names only the zones of places). */
const TIME_ZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

export interface ServiceLevelsFormProps {
  levels: ServiceLevelsAnswer;
  /** Whose levels the form writes: a tenant's id, or null for the installation's. */
  tenantId: string | null;
  /** Shown, not changed: no ServiceLevels edit, or a tenant that follows the installation's. */
  readOnly: boolean;
}

/**
 * The levels in force, edited whole: the calendar (time zone, business hours, holidays, pause
 * states) and the targets per work unit type and severity. Save writes them (`PUT`) and puts a
 * refusal's field texts onto the fields; read only, every field is disabled and there is no Save.
 */
export function ServiceLevelsForm({ levels, tenantId, readOnly }: ServiceLevelsFormProps) {
  const form = useSchemaForm(serviceLevelsFormSchema, serviceLevelsFormValues(levels), { disabled: readOnly });
  const save = useSaveServiceLevels(tenantId);
  const aroundTheClock = useWatch({ control: form.control, name: 'aroundTheClock' });

  const onSave = async (values: ServiceLevelsFormValues) => {
    try {
      await save.mutateAsync(toServiceLevelsInput(values));
    } catch (error) {
      // Who may change the installation's levels is the server's to say: its words, above Save.
      if (error instanceof ApiError && error.status === 403)
        form.setError(SERVER_ROOT_ERROR, { type: 'server', message: error.message });
      throw error;
    }
  };

  return (
    // A field scrolled to (the first message Save focuses, a Tab) shows clear of the fixed header above and,
    // with its message, of the sticky Save bar below.
    <Box
      component="form"
      noValidate
      onSubmit={(event) => event.preventDefault()}
      sx={{ '& input': { scrollMarginTop: '80px', scrollMarginBottom: '140px' } }}
    >
      <Section title="Calendar">
        <TimeZoneField control={form.control} disabled={readOnly} />
        <Box>
          <FormCheckboxField
            control={form.control}
            name="aroundTheClock"
            label="Around the Clock"
            helperText="The clocks count every hour of every day; holidays do not stop them."
          />
        </Box>
        {!aroundTheClock && <BusinessHours control={form.control} disabled={readOnly} />}
        <Holidays control={form.control} disabled={readOnly} aroundTheClock={aroundTheClock} />
        {/* Read only, the group's title stays readable: a title, not a control that is off. */}
        <Box sx={{ '& legend.Mui-disabled': { color: 'text.secondary' } }}>
          <CheckboxGroupField
            control={form.control}
            name="pauseStates"
            label="Pause States"
            options={PAUSE_STATE_OPTIONS}
            row
          />
          <Typography variant="body2" color="text.secondary">
            Both clocks stop while a work unit is in one of these states, and go on when it leaves it.
          </Typography>
        </Box>
      </Section>
      <Section title="Targets">
        <Typography variant="body2" color="text.secondary">
          Business time of the calendar, as HH:mm:ss: 00:30:00 is half an hour, and the hours may pass 24 (120:00:00).
          An empty target has no clock.
        </Typography>
        <TargetsTable control={form.control} />
      </Section>
      {!readOnly && (
        <Box
          sx={{
            position: 'sticky',
            bottom: 0,
            zIndex: 1,
            bgcolor: 'background.default',
            borderTop: 1,
            borderColor: 'divider',
            pb: 2,
          }}
        >
          <FormActions
            form={form}
            onSave={onSave}
            loading={save.isPending}
            serverErrorPath={(field) => serviceLevelsServerErrorPath(form.getValues(), field)}
          />
        </Box>
      )}
    </Box>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2, mb: 2 }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** An IANA zone: typed, or picked from the browser's list. */
function TimeZoneField({ control, disabled }: { control: FormControl; disabled: boolean }) {
  const { field, fieldState } = useController({ control, name: 'timeZone' });
  return (
    <Autocomplete<string, false, false, true>
      freeSolo
      options={TIME_ZONES}
      value={field.value}
      inputValue={field.value}
      disabled={disabled || field.disabled}
      onInputChange={(_event, text, reason) => {
        if (reason !== 'reset' || text !== '') field.onChange(text);
      }}
      onChange={(_event, zone) => field.onChange(zone ?? '')}
      sx={{ maxWidth: 360 }}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Time Zone"
          required
          margin="normal"
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          error={fieldState.error !== undefined}
          helperText={fieldState.error?.message ?? 'The zone the business hours and holidays are read in.'}
        />
      )}
    />
  );
}

/** The weekdays, Monday first, each open for one or more ranges or closed. */
function BusinessHours({ control, disabled }: { control: FormControl; disabled: boolean }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 1 }}>
      <Typography component="legend" variant="subtitle1">
        Business Hours
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        The clocks count only within these hours (HH:mm, 24:00 for the end of the day). A day without a tick is closed.
      </Typography>
      {WEEKDAY_ORDER.map((weekday) => (
        <WeekdayRow key={weekday} control={control} weekday={weekday} disabled={disabled} />
      ))}
    </Box>
  );
}

function WeekdayRow({ control, weekday, disabled }: { control: FormControl; weekday: number; disabled: boolean }) {
  // The days are held Sunday first, at their weekday's index.
  const { fields, append, remove, replace } = useFieldArray({ control, name: `days.${weekday}.ranges` });
  const day = weekdayName(weekday);
  const open = fields.length > 0;
  return (
    <Box
      role="group"
      aria-label={day}
      sx={{
        display: 'flex',
        alignItems: 'flex-start',
        flexWrap: 'wrap',
        columnGap: 2,
        rowGap: 1,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <FormControlLabel
        sx={{ width: 140, m: 0 }}
        label={day}
        control={
          <Checkbox
            checked={open}
            disabled={disabled}
            onChange={(event) => replace(event.target.checked ? [{ ...DEFAULT_RANGE }] : [])}
          />
        }
      />
      {open ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          {fields.map((range, index) => (
            <Box key={range.id} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
              {RANGE_ENDS.map(([end, label]) => (
                <FormTextField
                  key={end}
                  control={control}
                  name={`days.${weekday}.ranges.${index}.${end}`}
                  label={label}
                  size="small"
                  margin="none"
                  placeholder="HH:mm"
                  sx={{ width: 110 }}
                  slotProps={{ htmlInput: { 'aria-label': `${day} ${label}${index > 0 ? ` ${index + 1}` : ''}` } }}
                />
              ))}
              {!disabled && fields.length > 1 && (
                <Tooltip title="Remove Hours">
                  <IconButton aria-label={`Remove ${day} Hours ${index + 1}`} onClick={() => remove(index)}>
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Box>
          ))}
        </Box>
      ) : (
        <Typography color="text.secondary" sx={{ py: 1 }}>
          Closed
        </Typography>
      )}
      {open && !disabled && fields.length < RANGES_PER_DAY && (
        <Tooltip title="Add Hours">
          <IconButton aria-label={`Add Hours on ${day}`} onClick={() => append({ start: '', end: '' })}>
            <AddIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
}

/** Local dates without business hours: chips, and a day picker to add one. */
function Holidays({
  control,
  disabled,
  aroundTheClock,
}: {
  control: FormControl;
  disabled: boolean;
  aroundTheClock: boolean;
}) {
  const { field, fieldState } = useController({ control, name: 'holidays' });
  const [day, setDay] = useState('');
  const holidays = field.value;
  const add = () => {
    if (day && !holidays.includes(day)) field.onChange([...holidays, day].sort());
    setDay('');
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2 }}>
      <Typography component="legend" variant="subtitle1">
        Holidays
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {aroundTheClock
          ? 'Holidays count only with business hours: around the clock, the clocks run on them too.'
          : 'Days of the calendar’s time zone without business hours.'}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1 }} data-testid="holidays">
        {holidays.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            No holidays.
          </Typography>
        )}
        {holidays.map((date) => (
          <Chip
            key={date}
            label={formatDate(date)}
            onDelete={disabled ? undefined : () => field.onChange(holidays.filter((other) => other !== date))}
          />
        ))}
      </Box>
      {!disabled && (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <DateFilterField label="Holiday" value={day} onChange={setDay} sx={{ width: 190 }} />
          <Button startIcon={<AddIcon />} disabled={!day || holidays.includes(day)} onClick={add}>
            Add Holiday
          </Button>
        </Box>
      )}
      {fieldState.error?.message && <FormHelperText error>{fieldState.error.message}</FormHelperText>}
    </Box>
  );
}

/** A row per work unit type and severity: the time to first response and to resolution. */
function TargetsTable({ control }: { control: FormControl }) {
  const types = useWorkUnitTypesLookup();
  const names = useMemo(
    () => new Map((types.data ?? []).map((type) => [type.workUnitTypeId, type.name])),
    [types.data],
  );
  const rowsOfType = (workUnitTypeId: number) => TARGET_ROWS.filter((row) => row.workUnitTypeId === workUnitTypeId);
  return (
    <TableContainer sx={{ mt: 1 }}>
      <Table size="small" aria-label="Targets" sx={{ width: 'auto', minWidth: { md: 640 } }}>
        <TableHead>
          <TableRow>
            <TableCell>Work Unit Type</TableCell>
            <TableCell>Severity</TableCell>
            <TableCell>Respond Within</TableCell>
            <TableCell>Resolve Within</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {TARGET_ROWS.map((row, index) => {
            const type = workUnitTypeLabel(row.workUnitTypeId, names);
            const severity = severityLabel(row.severityId);
            const group = rowsOfType(row.workUnitTypeId);
            return (
              <TableRow key={`${row.workUnitTypeId}-${row.severityId}`} data-testid={`target-${type}-${severity}`}>
                {group[0] === row && (
                  <TableCell
                    component="th"
                    scope="rowgroup"
                    rowSpan={group.length}
                    sx={{ verticalAlign: 'top', pt: 2 }}
                  >
                    {type}
                  </TableCell>
                )}
                <TableCell component="th" scope="row" sx={{ verticalAlign: 'top', pt: 2 }}>
                  {severity}
                </TableCell>
                {(['respondWithin', 'resolveWithin'] as const).map((field) => (
                  <TableCell key={field} sx={{ width: 220, verticalAlign: 'top' }}>
                    <FormTextField
                      control={control}
                      name={`targets.${index}.${field}`}
                      size="small"
                      margin="none"
                      placeholder="No clock"
                      sx={{ width: 200 }}
                      slotProps={{
                        htmlInput: {
                          'aria-label': `${type} ${severity} ${field === 'respondWithin' ? 'Respond Within' : 'Resolve Within'}`,
                        },
                      }}
                    />
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
