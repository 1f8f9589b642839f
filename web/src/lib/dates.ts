import { DATE_FORMAT, SHORT_DATE_FORMAT, TIME_FORMAT } from '@cfs/contracts/constants';

/*
 * Dates as the screens show them (spec 000 §9), with the browser's own Intl: the lists show dates
 * on their first paint, before the date library the pickers use (dayjs) has loaded. The formats
 * are the contracts' (dayjs tokens: YYYY M MMM D ddd HH h mm ss a z), read here the same way.
 */

export type DateInput = string | number | Date | null | undefined;

let zone: string | undefined;

/**
 * The browser's time zone; every date is shown in local time (spec 000 §9). Read once a page: each
 * reading makes an `Intl.DateTimeFormat`, which costs more than formatting a date with one, and
 * every date cell of a grid asks.
 */
export function localTimeZone(): string {
  return (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** A date and time written without a zone, read in local time as dayjs reads it (its REGEX_PARSE). */
const LOCAL_TEXT = /^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt\s]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$/;

/** The moment a value names, or undefined for no date or one that is not a date. */
function toDate(value: DateInput): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  let date: Date;
  const local = typeof value === 'string' && !/z$/i.test(value) ? LOCAL_TEXT.exec(value) : null;
  if (local) {
    const [, year, month, day, hour, minute, second, fraction] = local;
    date = new Date(
      Number(year),
      Number(month ?? 1) - 1,
      Number(day || 1),
      Number(hour ?? 0),
      Number(minute ?? 0),
      Number(second ?? 0),
      Number((fraction ?? '0').slice(0, 3)),
    );
  } else {
    date = new Date(value instanceof Date ? value.getTime() : value);
  }
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar and clock fields of a moment in a time zone, with the zone's short name ("EST"). */
function fieldsIn(date: Date, timeZone: string): Record<string, string> {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return Object.fromEntries(formatter.formatToParts(date).map((part) => [part.type, part.value]));
}

const TOKENS = /YYYY|MMM|ddd|HH|mm|ss|D|M|h|a|z/g;

function format(value: DateInput, pattern: string, timeZone: string): string {
  const date = toDate(value);
  if (!date) return '';
  const fields = fieldsIn(date, timeZone);
  const hour = Number(fields.hour);
  const two = (text: string | undefined) => (text ?? '').padStart(2, '0');
  const tokens: Record<string, string> = {
    YYYY: fields.year ?? '',
    MMM: MONTHS[Number(fields.month) - 1] ?? '',
    ddd: fields.weekday ?? '',
    HH: two(String(hour)),
    mm: two(fields.minute),
    ss: two(fields.second),
    D: String(Number(fields.day)),
    M: String(Number(fields.month)),
    h: String(hour % 12 || 12),
    a: hour < 12 ? 'am' : 'pm',
    z: fields.timeZoneName ?? '',
  };
  return pattern.replace(TOKENS, (token) => tokens[token] ?? token);
}

/**
 * "D/MMM/YYYY HH:mm z", e.g. "5/Mar/2026 14:07 EST"; an empty string for no date.
 * The time zone parameter exists for tests; screens use the default (local time).
 */
export function formatDateTime(value: DateInput, timeZone: string = localTimeZone()): string {
  return format(value, DATE_FORMAT, timeZone);
}

/** "h:mma, ddd, M/D/YYYY", e.g. "2:07pm, Thu, 3/5/2026". */
export function formatShortDateTime(value: DateInput, timeZone: string = localTimeZone()): string {
  return format(value, SHORT_DATE_FORMAT, timeZone);
}

/** "HH:mm:ss", e.g. "14:07:09". */
export function formatTime(value: DateInput, timeZone: string = localTimeZone()): string {
  return format(value, TIME_FORMAT, timeZone);
}

/** "D/MMM/YYYY" without the time, for dates such as a licence expiration. */
export function formatDate(value: DateInput, timeZone: string = localTimeZone()): string {
  return format(value, 'D/MMM/YYYY', timeZone);
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * Whole days from `now` until `value`, truncated toward zero, a day being a calendar day in local
 * time (a daylight-saving change in between does not cut one short), as the licence dialog shows
 * them (spec 000 §1, §9). Negative once the date has passed.
 */
export function daysUntil(value: DateInput, now: DateInput = new Date()): number | undefined {
  const target = toDate(value);
  const from = toDate(now ?? new Date());
  if (!target || !from) return undefined;
  const zoneShift = (target.getTimezoneOffset() - from.getTimezoneOffset()) * MINUTE_MS;
  return Math.trunc((target.getTime() - from.getTime() - zoneShift) / DAY_MS) || 0;
}

/** `date` plus whole calendar months in local time, its day kept where the month has it (31 Jan + 1 = 28/29 Feb). */
function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getDate();
  result.setDate(1);
  result.setMonth(result.getMonth() + months);
  result.setDate(Math.min(day, new Date(result.getFullYear(), result.getMonth() + 1, 0).getDate()));
  return result;
}

/** Calendar months from `b` to `a` with the fraction of the month between (moment's and dayjs's month difference). */
function monthsBetween(a: Date, b: Date): number {
  if (a.getDate() < b.getDate()) return -monthsBetween(b, a);
  const whole = (b.getFullYear() - a.getFullYear()) * 12 + (b.getMonth() - a.getMonth());
  const anchor = addMonths(a, whole);
  const before = b.getTime() - anchor.getTime() < 0;
  const anchor2 = addMonths(a, whole + (before ? -1 : 1));
  const span = before ? anchor.getTime() - anchor2.getTime() : anchor2.getTime() - anchor.getTime();
  return -(whole + (b.getTime() - anchor.getTime()) / span) || 0;
}

const RELATIVE_STEPS: readonly { unit: string; ms: number; below: number }[] = [
  { unit: 'min', ms: MINUTE_MS, below: 60 },
  { unit: 'h', ms: 3_600_000, below: 24 },
  { unit: 'd', ms: DAY_MS, below: 30 },
];

/**
 * How long ago (or how far ahead) a moment is, in the largest whole unit, as lists show it beside
 * the date: "just now", "5 min ago", "2 h ago", "3 d ago", "4 mo ago", "1 y ago", "in 2 h".
 * '' for no date. Minutes, hours and days count whole units; months and years are calendar ones,
 * rounded, so that a token expiring a year from now (less the seconds since) reads "in 1 y",
 * never "in 0 y" or "in 11 mo".
 */
export function formatRelative(value: DateInput, now: DateInput = new Date()): string {
  const target = toDate(value);
  const from = toDate(now ?? new Date());
  if (!target || !from) return '';
  const diff = from.getTime() - target.getTime();
  const span = Math.abs(diff);
  if (span < MINUTE_MS) return 'just now';
  const step = RELATIVE_STEPS.find((candidate) => span < candidate.ms * candidate.below);
  let amount: string;
  if (step) {
    amount = `${Math.floor(span / step.ms)} ${step.unit}`;
  } else {
    // 30 days or more: at least one month.
    const months = Math.abs(monthsBetween(from, target));
    const rounded = Math.max(1, Math.round(months));
    amount = rounded < 12 ? `${rounded} mo` : `${Math.round(months / 12)} y`;
  }
  return diff > 0 ? `${amount} ago` : `in ${amount}`;
}

/** A time span `HH:mm:ss` in words: "10 seconds", "1 minute", "30 minutes", "1 hour", "4 hours 30 minutes". */
export function formatSpan(span: string): string {
  const [hours = 0, minutes = 0, seconds = 0] = span.split(':').map(Number);
  return spanWords(hours, minutes, seconds);
}

/** A number of seconds in the words of formatSpan: 5400 → "1 hour 30 minutes". */
export function formatSeconds(total: number): string {
  const whole = Math.max(0, Math.round(total));
  return spanWords(Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60);
}

function spanWords(hours: number, minutes: number, seconds: number): string {
  const unit = (count: number, name: string) => (count > 0 ? `${count} ${name}${count === 1 ? '' : 's'}` : '');
  const words = [unit(hours, 'hour'), unit(minutes, 'minute'), unit(seconds, 'second')].filter(Boolean);
  return words.length > 0 ? words.join(' ') : '0 minutes';
}
