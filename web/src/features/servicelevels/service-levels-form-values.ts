import type { Path } from 'react-hook-form';
import { z } from 'zod';
import {
  SERVICE_LEVEL_MESSAGES,
  hoursOverlap,
  serviceLevelsInputSchema,
  type ServiceLevels,
  type ServiceLevelsInput,
} from '@cfs/contracts/service-levels';
import {
  FINISHED_STATES,
  SEVERITIES,
  SEVERITY_LABELS,
  STATE_LABELS,
  WORK_UNIT_STATES,
  WORK_UNIT_TYPES,
} from '@cfs/contracts/values/work-units';

/**
 * The Service Levels form (docs/features/service-levels.md "The screen") and its mapping to and
 * from `PUT v1/servicelevels/{tenantId}`: business hours as the seven weekdays, each with its
 * ranges (none: closed), behind an Around the Clock switch; the targets as one row per work unit
 * type and severity, each span as typed ('' for no clock). The checks are the contract's, with its
 * messages, run on the form's own fields.
 */

export interface HoursRange {
  /** `HH:mm`. */
  start: string;
  /** `HH:mm`, 24:00 for the day's end. */
  end: string;
}

export interface WeekdayHours {
  /** 0 Sunday … 6 Saturday, as the API counts them. */
  weekday: number;
  /** No range: closed all day. */
  ranges: HoursRange[];
}

export interface TargetRow {
  workUnitTypeId: number;
  severityId: number;
  /** `HH:mm:ss` as typed; '' for no clock. */
  respondWithin: string;
  resolveWithin: string;
}

export interface ServiceLevelsFormValues {
  timeZone: string;
  /** On: the clocks count every hour (`businessHours: null`); the days below are kept but not sent. */
  aroundTheClock: boolean;
  /** The seven weekdays, Sunday first: `days[weekday]`. */
  days: WeekdayHours[];
  /** Local dates, `YYYY-MM-DD`. */
  holidays: string[];
  pauseStates: number[];
  /** One row per work unit type and severity, in `TARGET_ROWS` order. */
  targets: TargetRow[];
}

/** What the levels are read from: the API's answer, or the input that would give it. */
type LevelsSource = Pick<ServiceLevels, 'timeZone' | 'businessHours' | 'holidays' | 'pauseStates' | 'targets'>;

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export const weekdayName = (weekday: number): string => WEEKDAY_NAMES[weekday] ?? String(weekday);

/** The order the form lists the weekdays in: the working week first. */
export const WEEKDAY_ORDER: readonly number[] = [1, 2, 3, 4, 5, 6, 0];

/** What a day opened in the form (or a calendar that stops being around the clock) starts with. */
export const DEFAULT_RANGE: HoursRange = { start: '09:00', end: '17:00' };

/** The work unit types as the portal names them (spec 000 §3: "Request" is shown as "User Request"). */
const TYPE_LABELS: Record<number, string> = {
  [WORK_UNIT_TYPES.Incident]: 'Incident',
  [WORK_UNIT_TYPES.ChangeRequest]: 'Change Request',
  [WORK_UNIT_TYPES.Intake]: 'Intake',
  [WORK_UNIT_TYPES.Request]: 'User Request',
  [WORK_UNIT_TYPES.Legacy]: 'Legacy',
};

/** A type's label: its name in the portal's lookup when it has one (names can be edited), else the portal's own. */
export function workUnitTypeLabel(workUnitTypeId: number, lookupNames: ReadonlyMap<number, string>): string {
  return lookupNames.get(workUnitTypeId) ?? TYPE_LABELS[workUnitTypeId] ?? String(workUnitTypeId);
}

export const severityLabel = (severityId: number): string => SEVERITY_LABELS[severityId] ?? String(severityId);

/** Every work unit type with every severity, Sev0 first: the rows of the Targets table. */
export const TARGET_ROWS: readonly { workUnitTypeId: number; severityId: number }[] = Object.values(
  WORK_UNIT_TYPES,
).flatMap((workUnitTypeId) => Object.values(SEVERITIES).map((severityId) => ({ workUnitTypeId, severityId })));

/** The states the clocks may pause in: those that are not finished, with their labels. */
export const PAUSE_STATE_OPTIONS: readonly { value: number; label: string }[] = Object.values(WORK_UNIT_STATES)
  .filter((state) => !FINISHED_STATES.includes(state))
  .map((state) => ({ value: state, label: STATE_LABELS[state] ?? String(state) }));

/** The form's values of the levels in force (a tenant's own, or the installation's it follows). */
export function serviceLevelsFormValues(levels: LevelsSource): ServiceLevelsFormValues {
  const hours = levels.businessHours;
  const days = WEEKDAY_NAMES.map((_name, weekday) => ({
    weekday,
    ranges: hours
      ? hours.filter((range) => range.weekday === weekday).map(({ start, end }) => ({ start, end }))
      : // Around the clock: what the days offer once the switch is turned off, Monday to Friday 9 to 5.
        weekday >= 1 && weekday <= 5
        ? [{ ...DEFAULT_RANGE }]
        : [],
  }));
  const target = (workUnitTypeId: number, severityId: number) =>
    levels.targets.find((each) => each.workUnitTypeId === workUnitTypeId && each.severityId === severityId);
  return {
    timeZone: levels.timeZone,
    aroundTheClock: hours === null,
    days,
    holidays: [...levels.holidays],
    pauseStates: [...levels.pauseStates],
    targets: TARGET_ROWS.map(({ workUnitTypeId, severityId }) => {
      const found = target(workUnitTypeId, severityId);
      return {
        workUnitTypeId,
        severityId,
        respondWithin: found?.respondWithin ?? '',
        resolveWithin: found?.resolveWithin ?? '',
      };
    }),
  };
}

/** The business hours as the API takes them: weekday by weekday, Sunday first, each day's ranges in order. */
function businessHoursOf(days: readonly WeekdayHours[]): { weekday: number; range: number; hours: HoursRange }[] {
  return [...days]
    .sort((a, b) => a.weekday - b.weekday)
    .flatMap((day) => day.ranges.map((hours, range) => ({ weekday: day.weekday, range, hours })));
}

/**
 * The body of `PUT v1/servicelevels/{tenantId}`. Every target row is sent, those without a clock
 * as nulls, in the form's order: a server message about `targets.N` is about the form's row N.
 */
export function toServiceLevelsInput(values: ServiceLevelsFormValues): ServiceLevelsInput {
  const span = (text: string) => (text.trim() === '' ? null : text.trim());
  return {
    timeZone: values.timeZone.trim(),
    businessHours: values.aroundTheClock
      ? null
      : businessHoursOf(values.days).map(({ weekday, hours }) => ({
          weekday,
          start: hours.start.trim(),
          end: hours.end.trim(),
        })),
    holidays: [...values.holidays],
    pauseStates: [...values.pauseStates],
    targets: values.targets.map((row) => ({
      workUnitTypeId: row.workUnitTypeId,
      severityId: row.severityId,
      respondWithin: span(row.respondWithin),
      resolveWithin: span(row.resolveWithin),
    })),
  };
}

/** The levels in force as the input that gives a tenant the same levels of its own. */
export function inputOf(levels: LevelsSource): ServiceLevelsInput {
  const { timeZone, businessHours, holidays, pauseStates, targets } = levels;
  return { timeZone, businessHours, holidays, pauseStates, targets };
}

// The contract's own checks, each run on the form field it concerns.
const contract = serviceLevelsInputSchema.shape;
const contractSpan = contract.targets.element.shape.respondWithin;
const contractHours = contract.businessHours.unwrap().element;

const spanText = z
  .string()
  .refine((text) => text.trim() === '' || contractSpan.safeParse(text).success, SERVICE_LEVEL_MESSAGES.targetInvalid);

/** The first message the contract gives for a value, or undefined when it holds. */
function contractMessage(schema: z.ZodType, value: unknown): string | undefined {
  return schema.safeParse(value).error?.issues[0]?.message;
}

/** Each open day's ranges against the contract (a start before its end, `HH:mm`), unless around the clock. */
function checkHours(values: { aroundTheClock: boolean; days: readonly WeekdayHours[] }, context: z.RefinementCtx) {
  if (values.aroundTheClock) return;
  for (const [dayIndex, day] of values.days.entries()) {
    for (const [rangeIndex, range] of day.ranges.entries()) {
      const before = day.ranges.slice(0, rangeIndex).map((other) => ({ weekday: day.weekday, ...other }));
      if (hoursOverlap([...before, { weekday: day.weekday, ...range }]) && !hoursOverlap(before))
        context.addIssue({
          code: 'custom',
          message: SERVICE_LEVEL_MESSAGES.hoursOverlap,
          path: ['days', dayIndex, 'ranges', rangeIndex, 'start'],
        });
      const checked = contractHours.safeParse({
        weekday: day.weekday,
        start: range.start.trim(),
        end: range.end.trim(),
      });
      for (const issue of checked.error?.issues ?? []) {
        // A start after its end is the range's: it shows on its end.
        const field = issue.path[0] === 'start' ? 'start' : 'end';
        context.addIssue({
          code: 'custom',
          message: issue.message,
          path: ['days', dayIndex, 'ranges', rangeIndex, field],
        });
      }
    }
  }
}

/** The form's validation: the contract's rules and messages, on the fields of the form. */
export const serviceLevelsFormSchema: z.ZodType<ServiceLevelsFormValues, ServiceLevelsFormValues> = z
  .object({
    timeZone: z.string().refine((zone) => contractMessage(contract.timeZone, zone.trim()) === undefined, {
      message: SERVICE_LEVEL_MESSAGES.timeZoneInvalid,
    }),
    aroundTheClock: z.boolean(),
    days: z.array(z.object({ weekday: z.number(), ranges: z.array(z.object({ start: z.string(), end: z.string() })) })),
    holidays: z
      .array(z.string())
      .refine(
        (dates) => contractMessage(contract.holidays, dates) === undefined,
        SERVICE_LEVEL_MESSAGES.holidayInvalid,
      ),
    pauseStates: z
      .array(z.number())
      .refine(
        (states) => contractMessage(contract.pauseStates, states) === undefined,
        SERVICE_LEVEL_MESSAGES.pauseInvalid,
      ),
    targets: z.array(
      z.object({
        workUnitTypeId: z.number(),
        severityId: z.number(),
        respondWithin: spanText,
        resolveWithin: spanText,
      }),
    ),
  })
  .superRefine(checkHours);

const TARGET_FIELD = /^targets\.(\d+)\.(respondWithin|resolveWithin)$/;
const HOURS_FIELD = /^businessHours\.(\d+)(?:\.(start|end|weekday))?$/;
const LIST_FIELD = /^(holidays|pauseStates)(?:\.\d+)?$/;

/**
 * Where a server field's text goes in the form: `businessHours.N` onto the range that was the
 * body's Nth (its end, or its start when the start is named), `targets.N.…` onto row N (sent in
 * the form's order), a holiday or pause state onto its list, the time zone onto its field. The
 * rest (two targets for one row, an unknown field) shows above Save.
 */
export function serviceLevelsServerErrorPath(
  values: ServiceLevelsFormValues,
  serverField: string,
): Path<ServiceLevelsFormValues> | undefined {
  if (serverField === 'timeZone') return 'timeZone';
  const target = TARGET_FIELD.exec(serverField);
  if (target) {
    const row = Number(target[1]);
    return row < values.targets.length ? `targets.${row}.${target[2] as 'respondWithin' | 'resolveWithin'}` : undefined;
  }
  const hours = HOURS_FIELD.exec(serverField);
  if (hours) {
    const sent = businessHoursOf(values.days)[Number(hours[1])];
    if (!sent) return undefined;
    const dayIndex = values.days.findIndex((day) => day.weekday === sent.weekday);
    return `days.${dayIndex}.ranges.${sent.range}.${hours[2] === 'start' ? 'start' : 'end'}`;
  }
  const list = LIST_FIELD.exec(serverField);
  if (list) return list[1] as 'holidays' | 'pauseStates';
  return undefined;
}
