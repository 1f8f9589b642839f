import { describe, expect, it } from 'vitest';
import { SERVICE_LEVEL_MESSAGES, serviceLevelsInputSchema, type ServiceLevels } from '@cfs/contracts/service-levels';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import {
  DEFAULT_RANGE,
  inputOf,
  PAUSE_STATE_OPTIONS,
  serviceLevelsFormSchema,
  serviceLevelsFormValues,
  serviceLevelsServerErrorPath,
  TARGET_ROWS,
  toServiceLevelsInput,
  workUnitTypeLabel,
  type ServiceLevelsFormValues,
} from './service-levels-form-values';

type Levels = Pick<ServiceLevels, 'timeZone' | 'businessHours' | 'holidays' | 'pauseStates' | 'targets'>;

const officeHours: Levels = {
  timeZone: 'Europe/Berlin',
  businessHours: [
    { weekday: 1, start: '08:00', end: '12:00' },
    { weekday: 1, start: '13:00', end: '17:00' },
    { weekday: 5, start: '09:00', end: '15:00' },
  ],
  holidays: ['2026-12-25'],
  pauseStates: [WORK_UNIT_STATES.OnHold],
  targets: [
    { workUnitTypeId: WORK_UNIT_TYPES.Incident, severityId: 1, respondWithin: '00:15:00', resolveWithin: '02:00:00' },
    { workUnitTypeId: WORK_UNIT_TYPES.Intake, severityId: 4, respondWithin: null, resolveWithin: '120:00:00' },
  ],
};

const rowOf = (workUnitTypeId: number, severityId: number) =>
  TARGET_ROWS.findIndex((row) => row.workUnitTypeId === workUnitTypeId && row.severityId === severityId);

/** The messages of each failing path of the form, e.g. `{ 'targets.5.respondWithin': [...] }`. */
function messages(values: ServiceLevelsFormValues): Record<string, string[]> {
  const byPath: Record<string, string[]> = {};
  for (const issue of serviceLevelsFormSchema.safeParse(values).error?.issues ?? [])
    (byPath[issue.path.join('.')] ??= []).push(issue.message);
  return byPath;
}

describe('the levels as the form holds them', () => {
  it('has a row for every work unit type and severity, and the states that are not finished as pause states', () => {
    expect(TARGET_ROWS).toHaveLength(Object.keys(WORK_UNIT_TYPES).length * 5);
    expect(TARGET_ROWS[0]).toEqual({ workUnitTypeId: WORK_UNIT_TYPES.Incident, severityId: 0 });
    expect(PAUSE_STATE_OPTIONS.map((option) => option.label)).toEqual([
      'New',
      'Acknowledged',
      'In Progress',
      'On Hold',
      'Mitigated',
    ]);
  });

  it('reads business hours per weekday (several ranges a day, a day without any closed) and a target per row', () => {
    const values = serviceLevelsFormValues(officeHours);
    expect(values.aroundTheClock).toBe(false);
    expect(values.days.map((day) => day.ranges.length)).toEqual([0, 2, 0, 0, 0, 1, 0]);
    expect(values.days[1]?.ranges).toEqual([
      { start: '08:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ]);
    expect(values.targets[rowOf(WORK_UNIT_TYPES.Incident, 1)]).toMatchObject({
      respondWithin: '00:15:00',
      resolveWithin: '02:00:00',
    });
    expect(values.targets[rowOf(WORK_UNIT_TYPES.Intake, 4)]).toMatchObject({
      respondWithin: '',
      resolveWithin: '120:00:00',
    });
    expect(values.targets[rowOf(WORK_UNIT_TYPES.Request, 0)]).toMatchObject({ respondWithin: '', resolveWithin: '' });
  });

  it('offers Monday to Friday 9 to 5 behind Around the Clock, for when it is turned off', () => {
    const values = serviceLevelsFormValues({ ...officeHours, businessHours: null });
    expect(values.aroundTheClock).toBe(true);
    expect(values.days.map((day) => day.ranges)).toEqual([
      [],
      [DEFAULT_RANGE],
      [DEFAULT_RANGE],
      [DEFAULT_RANGE],
      [DEFAULT_RANGE],
      [DEFAULT_RANGE],
      [],
    ]);
    expect(toServiceLevelsInput(values).businessHours).toBeNull();
    expect(toServiceLevelsInput({ ...values, aroundTheClock: false }).businessHours).toHaveLength(5);
  });

  it('names the types as the lookup does, else as the portal does', () => {
    expect(workUnitTypeLabel(WORK_UNIT_TYPES.Request, new Map())).toBe('User Request');
    expect(workUnitTypeLabel(WORK_UNIT_TYPES.ChangeRequest, new Map())).toBe('Change Request');
    expect(workUnitTypeLabel(WORK_UNIT_TYPES.Incident, new Map([[WORK_UNIT_TYPES.Incident, 'Outage']]))).toBe('Outage');
  });
});

describe('the body of PUT v1/servicelevels/{tenantId}', () => {
  it('gives back the levels it was read from, every row sent (those without a clock as nulls), and passes the contract', () => {
    const body = toServiceLevelsInput(serviceLevelsFormValues(officeHours));
    expect(serviceLevelsInputSchema.safeParse(body).success).toBe(true);
    expect(body.timeZone).toBe('Europe/Berlin');
    expect(body.businessHours).toEqual(officeHours.businessHours);
    expect(body.holidays).toEqual(['2026-12-25']);
    expect(body.pauseStates).toEqual([WORK_UNIT_STATES.OnHold]);
    expect(body.targets).toHaveLength(TARGET_ROWS.length);
    expect(body.targets.filter((target) => target.respondWithin !== null || target.resolveWithin !== null)).toEqual(
      officeHours.targets,
    );
  });

  it('trims what was typed, and an empty target is no clock', () => {
    const values = serviceLevelsFormValues(officeHours);
    const row = rowOf(WORK_UNIT_TYPES.Incident, 1);
    values.timeZone = ' UTC ';
    values.targets[row] = { ...values.targets[row]!, respondWithin: ' 00:30:00 ', resolveWithin: '  ' };
    const body = toServiceLevelsInput(values);
    expect(body.timeZone).toBe('UTC');
    expect(body.targets[row]).toMatchObject({ respondWithin: '00:30:00', resolveWithin: null });
  });

  it('gives a tenant the levels it followed as its own', () => {
    const answer: ServiceLevels = { ...officeHours, tenantId: null, inherited: true, modified: null, modifiedBy: null };
    expect(inputOf(answer)).toEqual(officeHours);
  });
});

describe('the form’s checks: the contract’s, with its messages, on the form’s fields', () => {
  it('passes the levels as read', () => {
    expect(messages(serviceLevelsFormValues(officeHours))).toEqual({});
  });

  it('shows every message at once, each on its field', () => {
    const values = serviceLevelsFormValues(officeHours);
    values.timeZone = 'Mars/Olympus';
    values.days[1]!.ranges[1] = { start: '18:00', end: '09:00' };
    values.days[5]!.ranges[0] = { start: '9', end: '15:00' };
    values.targets[0]!.respondWithin = '00:00:30';
    values.targets[1]!.resolveWithin = 'soon';
    values.pauseStates = [WORK_UNIT_STATES.Closed];
    expect(messages(values)).toEqual({
      timeZone: [SERVICE_LEVEL_MESSAGES.timeZoneInvalid],
      'days.1.ranges.1.end': [SERVICE_LEVEL_MESSAGES.hoursInvalid],
      'days.5.ranges.0.start': [SERVICE_LEVEL_MESSAGES.hoursInvalid],
      'targets.0.respondWithin': [SERVICE_LEVEL_MESSAGES.targetInvalid],
      'targets.1.resolveWithin': [SERVICE_LEVEL_MESSAGES.targetInvalid],
      pauseStates: [SERVICE_LEVEL_MESSAGES.pauseInvalid],
    });
  });

  it('refuses ranges of one day that overlap, on the range that starts inside another; one ending as the next starts is fine', () => {
    const values = serviceLevelsFormValues(officeHours);
    values.days[2]!.ranges = [
      { start: '08:00', end: '12:00' },
      { start: '12:00', end: '16:00' },
      { start: '15:00', end: '18:00' },
    ];
    expect(messages(values)).toEqual({ 'days.2.ranges.2.start': [SERVICE_LEVEL_MESSAGES.hoursOverlap] });
  });

  it('does not check the hours of a calendar around the clock, which are not sent', () => {
    const values = serviceLevelsFormValues(officeHours);
    values.aroundTheClock = true;
    values.days[1]!.ranges[0] = { start: '', end: '' };
    expect(messages(values)).toEqual({});
  });

  it('takes targets up to a year and 24:00 as the end of a day', () => {
    const values = serviceLevelsFormValues(officeHours);
    values.targets[0]!.resolveWithin = '8760:00:00';
    values.days[1]!.ranges[1] = { start: '13:00', end: '24:00' };
    expect(messages(values)).toEqual({});
    values.targets[0]!.resolveWithin = '8760:00:01';
    expect(messages(values)).toEqual({ 'targets.0.resolveWithin': [SERVICE_LEVEL_MESSAGES.targetInvalid] });
  });
});

describe('where a refused save’s field texts go', () => {
  const values = serviceLevelsFormValues(officeHours);
  const at = (field: string) => serviceLevelsServerErrorPath(values, field);

  it('a target onto its row, which the body sent at the same place', () => {
    expect(at('targets.7.respondWithin')).toBe('targets.7.respondWithin');
    expect(at('targets.24.resolveWithin')).toBe('targets.24.resolveWithin');
  });

  it('the body’s Nth business hours onto the range they were sent from: its end, or its start when named', () => {
    // Sent Sunday first: Monday's two ranges, then Friday's.
    expect(at('businessHours.0')).toBe('days.1.ranges.0.end');
    expect(at('businessHours.1.start')).toBe('days.1.ranges.1.start');
    expect(at('businessHours.2')).toBe('days.5.ranges.0.end');
    expect(at('businessHours.3')).toBeUndefined();
  });

  it('a holiday, a pause state and the time zone onto their fields; the rest above Save', () => {
    expect(at('holidays.0')).toBe('holidays');
    expect(at('pauseStates.1')).toBe('pauseStates');
    expect(at('timeZone')).toBe('timeZone');
    expect(at('targets')).toBeUndefined();
    expect(at('targets.3.workUnitTypeId')).toBeUndefined();
    expect(at('slaName')).toBeUndefined();
  });
});
