import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { DATE_FORMAT, SHORT_DATE_FORMAT, TIME_FORMAT } from '@cfs/contracts/constants';

// "z" (zone abbreviation) needs advancedFormat together with utc/timezone (spec 000 §9).
dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(advancedFormat);

export type DateInput = string | number | Date | null | undefined;

/** The browser's time zone; every date is shown in local time (spec 000 §9). */
export function localTimeZone(): string {
  return dayjs.tz.guess();
}

function inZone(value: DateInput, timeZone: string): dayjs.Dayjs | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.tz(timeZone) : undefined;
}

/**
 * "D/MMM/YYYY HH:mm z", e.g. "5/Mar/2026 14:07 EST"; an empty string for no date.
 * The time zone parameter exists for tests; screens use the default (local time).
 */
export function formatDateTime(value: DateInput, timeZone: string = localTimeZone()): string {
  return inZone(value, timeZone)?.format(DATE_FORMAT) ?? '';
}

/** "h:mma, ddd, M/D/YYYY", e.g. "2:07pm, Thu, 3/5/2026". */
export function formatShortDateTime(value: DateInput, timeZone: string = localTimeZone()): string {
  return inZone(value, timeZone)?.format(SHORT_DATE_FORMAT) ?? '';
}

/** "HH:mm:ss", e.g. "14:07:09". */
export function formatTime(value: DateInput, timeZone: string = localTimeZone()): string {
  return inZone(value, timeZone)?.format(TIME_FORMAT) ?? '';
}

/** "D/MMM/YYYY" without the time, for dates such as a licence expiration. */
export function formatDate(value: DateInput, timeZone: string = localTimeZone()): string {
  return inZone(value, timeZone)?.format('D/MMM/YYYY') ?? '';
}

/**
 * Whole days from `now` until `value` (dayjs diff in days, truncated toward zero), as the
 * licence dialog shows them (spec 000 §1, §9). Negative once the date has passed.
 */
export function daysUntil(value: DateInput, now: DateInput = new Date()): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const target = dayjs(value);
  if (!target.isValid()) return undefined;
  return target.diff(dayjs(now ?? undefined), 'day');
}

const RELATIVE_STEPS: readonly { unit: string; ms: number; below: number }[] = [
  { unit: 'min', ms: 60_000, below: 60 },
  { unit: 'h', ms: 3_600_000, below: 24 },
  { unit: 'd', ms: 86_400_000, below: 30 },
];

/**
 * How long ago (or how far ahead) a moment is, in the largest whole unit, as lists show it beside
 * the date: "just now", "5 min ago", "2 h ago", "3 d ago", "4 mo ago", "1 y ago", "in 2 h".
 * '' for no date. Minutes, hours and days count whole units; months and years are calendar ones,
 * rounded, so that a token expiring a year from now (less the seconds since) reads "in 1 y",
 * never "in 0 y" or "in 11 mo".
 */
export function formatRelative(value: DateInput, now: DateInput = new Date()): string {
  if (value === null || value === undefined || value === '') return '';
  const target = dayjs(value);
  if (!target.isValid()) return '';
  const from = dayjs(now ?? undefined);
  const diff = from.diff(target);
  const span = Math.abs(diff);
  if (span < 60_000) return 'just now';
  const step = RELATIVE_STEPS.find((candidate) => span < candidate.ms * candidate.below);
  let amount: string;
  if (step) {
    amount = `${Math.floor(span / step.ms)} ${step.unit}`;
  } else {
    // 30 days or more: at least one month.
    const months = Math.max(1, Math.round(Math.abs(from.diff(target, 'month', true))));
    amount = months < 12 ? `${months} mo` : `${Math.round(Math.abs(from.diff(target, 'year', true)))} y`;
  }
  return diff > 0 ? `${amount} ago` : `in ${amount}`;
}
