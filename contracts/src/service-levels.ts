import { z } from 'zod';
import { isKnownTimeZone } from './fields.js';
import { INTERVAL_PATTERN, intervalSeconds } from './device-operations.js';
import { SEVERITIES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from './work-units.js';

/**
 * Service levels (docs/features/service-levels.md): per tenant, with the installation's as the
 * default, the times to first response and to resolution per work unit type and severity, the
 * calendar they count in, and the states in which the clocks pause. GET and PUT
 * v1/servicelevels/{tenantId}; the installation's at v1/servicelevels/installation.
 */
export const SERVICE_LEVEL_MESSAGES = {
  timeZoneInvalid: 'Time zone must be an IANA time zone, e.g. Europe/Berlin.',
  hoursInvalid: 'Business hours are a weekday (0 Sunday … 6 Saturday) and a start before an end, HH:mm.',
  hoursOverlap: 'Business hours of one weekday must not overlap.',
  holidayInvalid: 'A holiday is a date, YYYY-MM-DD.',
  targetInvalid: 'A target is a time span (HH:mm:ss) from 1 minute to 365 days, or empty for none.',
  targetTwice: 'Each work unit type and severity has one target.',
  pauseInvalid: 'Pause states are work unit states that are not finished.',
  saved: 'Service levels saved.',
  reset: 'The tenant follows the installation’s service levels again.',
  installationOnly: 'Only staff of every tenant may change the installation’s service levels.',
  notFound: 'The tenant does not exist.',
  monthInvalid: 'Month must be a month, YYYY-MM.',
} as const;

/** The clocks of a work unit: time to first response (it leaves New) and to resolution (it is finished). */
export const SERVICE_LEVEL_KINDS = ['response', 'resolution'] as const;
export type ServiceLevelKind = (typeof SERVICE_LEVEL_KINDS)[number];

/** A warning at this share of a target, a breach at all of it. */
export const SERVICE_LEVEL_WARN_AT = 0.75;

const TARGET_LIMITS = { minSeconds: 60, maxSeconds: 365 * 86_400 };
const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;

/** Seconds of the day of an `HH:mm` text (24:00 is the day's end). */
export const secondOfDay = (text: string): number => {
  const [hours, minutes] = text.split(':').map(Number);
  return (hours ?? 0) * 3600 + (minutes ?? 0) * 60;
};

const target = z
  .string({ error: SERVICE_LEVEL_MESSAGES.targetInvalid })
  .trim()
  .regex(INTERVAL_PATTERN, { error: SERVICE_LEVEL_MESSAGES.targetInvalid, abort: true })
  .refine((text) => {
    const seconds = intervalSeconds(text) ?? 0;
    return seconds >= TARGET_LIMITS.minSeconds && seconds <= TARGET_LIMITS.maxSeconds;
  }, SERVICE_LEVEL_MESSAGES.targetInvalid)
  .nullable();

/** Whether two ranges of one weekday share a moment (one ending as the next starts does not). */
export function hoursOverlap(ranges: readonly { weekday: number; start: string; end: string }[]): boolean {
  const sorted = [...ranges].sort((a, b) => a.weekday - b.weekday || secondOfDay(a.start) - secondOfDay(b.start));
  return sorted.some(
    (range, index) =>
      index > 0 &&
      sorted[index - 1]!.weekday === range.weekday &&
      secondOfDay(range.start) < secondOfDay(sorted[index - 1]!.end),
  );
}

const isIn =
  (values: Record<string, number>) =>
  (id: number): boolean =>
    Object.values(values).includes(id);

const finished: readonly number[] = [WORK_UNIT_STATES.Resolved, WORK_UNIT_STATES.Closed, WORK_UNIT_STATES.Canceled];

export const serviceLevelsInputSchema = z.object({
  timeZone: z
    .string({ error: SERVICE_LEVEL_MESSAGES.timeZoneInvalid })
    .refine(isKnownTimeZone, SERVICE_LEVEL_MESSAGES.timeZoneInvalid),
  /** Null: around the clock (holidays then do not count either). */
  businessHours: z
    .array(
      z
        .object({
          weekday: z.number({ error: SERVICE_LEVEL_MESSAGES.hoursInvalid }).int().min(0).max(6),
          start: z.string({ error: SERVICE_LEVEL_MESSAGES.hoursInvalid }).regex(TIME_OF_DAY),
          end: z.string({ error: SERVICE_LEVEL_MESSAGES.hoursInvalid }).regex(TIME_OF_DAY),
        })
        .refine((hours) => secondOfDay(hours.start) < secondOfDay(hours.end), SERVICE_LEVEL_MESSAGES.hoursInvalid),
      { error: SERVICE_LEVEL_MESSAGES.hoursInvalid },
    )
    .max(28)
    // An hour in two ranges of a day would count twice.
    .refine((ranges) => !hoursOverlap(ranges), SERVICE_LEVEL_MESSAGES.hoursOverlap)
    .nullable(),
  holidays: z
    .array(z.iso.date({ error: SERVICE_LEVEL_MESSAGES.holidayInvalid }), {
      error: SERVICE_LEVEL_MESSAGES.holidayInvalid,
    })
    .max(400),
  pauseStates: z
    .array(
      z
        .number({ error: SERVICE_LEVEL_MESSAGES.pauseInvalid })
        .int()
        .refine(
          (state) => isIn(WORK_UNIT_STATES)(state) && !finished.includes(state),
          SERVICE_LEVEL_MESSAGES.pauseInvalid,
        ),
      { error: SERVICE_LEVEL_MESSAGES.pauseInvalid },
    )
    .max(8),
  targets: z
    .array(
      z.object({
        workUnitTypeId: z.number().int().refine(isIn(WORK_UNIT_TYPES), 'Work unit type is not one of the portal’s.'),
        severityId: z.number().int().refine(isIn(SEVERITIES), 'Severity is not one of Sev0 to Sev4.'),
        respondWithin: target,
        resolveWithin: target,
      }),
    )
    .max(100)
    .refine(
      (targets) => new Set(targets.map((each) => `${each.workUnitTypeId} ${each.severityId}`)).size === targets.length,
      SERVICE_LEVEL_MESSAGES.targetTwice,
    ),
});
export type ServiceLevelsInput = z.input<typeof serviceLevelsInputSchema>;

export const serviceLevelsSchema = z.object({
  /** Null: the installation's. */
  tenantId: z.uuid().nullable(),
  /** The tenant has none of its own: these are the installation's, in force for it. */
  inherited: z.boolean(),
  timeZone: z.string(),
  businessHours: z.array(z.object({ weekday: z.number(), start: z.string(), end: z.string() })).nullable(),
  holidays: z.array(z.string()),
  pauseStates: z.array(z.number()),
  targets: z.array(
    z.object({
      workUnitTypeId: z.number(),
      severityId: z.number(),
      respondWithin: z.string().nullable(),
      resolveWithin: z.string().nullable(),
    }),
  ),
  modified: z.date().nullable(),
  modifiedBy: z.string().nullable(),
});
export type ServiceLevels = z.infer<typeof serviceLevelsSchema>;

/** A work unit's clock as the panel shows it: GET v1/servicelevels/timers/{workUnitId}. */
export const serviceLevelTimerSchema = z.object({
  kind: z.enum(SERVICE_LEVEL_KINDS),
  /** The target, HH:mm:ss of the calendar's time. */
  target: z.string(),
  status: z.enum(['running', 'paused', 'met', 'missed']),
  started: z.date(),
  /** Business seconds counted until now (or until it stopped). */
  elapsedSeconds: z.number(),
  /** What is left of the target; negative once it is breached. */
  remainingSeconds: z.number(),
  /** When it is due while it runs. */
  due: z.date().nullable(),
  stopped: z.date().nullable(),
  warned: z.date().nullable(),
  breached: z.date().nullable(),
});
export type ServiceLevelTimer = z.infer<typeof serviceLevelTimerSchema>;

/** GET v1/servicelevels/reports/{tenantId}?month=YYYY-MM (and …/csv); any other parameter is refused by name. */
export const serviceLevelReportQuerySchema = z.strictObject({
  month: z
    .string({ error: SERVICE_LEVEL_MESSAGES.monthInvalid })
    .regex(/^(?!0000)\d{4}-(0[1-9]|1[0-2])$/, SERVICE_LEVEL_MESSAGES.monthInvalid),
});

/** How a set of clocks decided in a period did: met their target, or missed it; attainment is met ÷ decided (null: none decided). */
export const attainmentSchema = z.object({
  decided: z.number().int(),
  met: z.number().int(),
  missed: z.number().int(),
  attainment: z.number().nullable(),
});
export type Attainment = z.infer<typeof attainmentSchema>;

const byClock = z.object({ response: attainmentSchema, resolution: attainmentSchema });

/**
 * A tenant's service level report for a month of its calendar's time zone
 * (docs/features/service-levels.md "The report"): each clock counts in the month it was decided —
 * missed when it breached, met when it stopped in time — per work unit type and severity, in
 * total, per week (weeks start on Monday), and the units whose clocks were missed.
 */
export const serviceLevelReportSchema = z.object({
  tenantId: z.uuid(),
  tenantName: z.string(),
  month: z.string(),
  timeZone: z.string(),
  from: z.date(),
  to: z.date(),
  total: byClock,
  rows: z.array(
    z
      .object({ workUnitTypeId: z.number(), workUnitTypeName: z.string(), severityId: z.number() })
      .extend(byClock.shape),
  ),
  /** Each week that has days in the month, by its Monday (YYYY-MM-DD). */
  weeks: z.array(z.object({ week: z.string() }).extend(byClock.shape)),
  /** The clocks missed in the month, first breached first: at most `SERVICE_LEVEL_REPORT_BREACHES`. */
  breaches: z.array(
    z.object({
      workUnitId: z.number(),
      title: z.string(),
      workUnitTypeId: z.number(),
      severityId: z.number(),
      kind: z.enum(SERVICE_LEVEL_KINDS),
      target: z.string(),
      breached: z.date(),
    }),
  ),
  /** Every missed clock is in `breaches` (false: the first SERVICE_LEVEL_REPORT_BREACHES). */
  breachesComplete: z.boolean(),
});
export type ServiceLevelReport = z.infer<typeof serviceLevelReportSchema>;

/** The most missed clocks a report lists by unit; the counts cover every one. */
export const SERVICE_LEVEL_REPORT_BREACHES = 500;
