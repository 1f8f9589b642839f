import { zonedParts } from '../../time-zones.js';

/**
 * A service level calendar (docs/features/service-levels.md): the time a target counts in. Around
 * the clock, or business hours per weekday in a time zone less the tenant's holidays (local
 * dates). Days are read in the zone, so business hours follow its daylight-saving changes.
 */
export interface BusinessCalendar {
  timeZone: string;
  /** Business hours as [start, end) seconds of the local day per weekday (0 Sunday … 6 Saturday); null: around the clock. */
  hours: readonly { weekday: number; start: number; end: number }[] | null;
  /** Local dates (YYYY-MM-DD) without business hours. */
  holidays: ReadonlySet<string>;
}

/** How far a calendar is searched for business time before a target is taken as never due. */
const SEARCH_DAYS = 3660;
const DAY_MS = 86_400_000;

/** The local wall time of an instant in a zone, as if it were UTC (milliseconds). */
function wallTime(instant: number, zone: string): number {
  const { year, month, day, hour, minute, second } = zonedParts(new Date(instant), zone);
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** The instant of a local wall time (a day's start as UTC milliseconds plus seconds) in a zone. */
function instantOf(dayStart: number, second: number, zone: string): number {
  const wall = dayStart + second * 1000;
  let instant = wall;
  // The zone's offset at the guess, then at the answer (a daylight-saving change between them).
  for (let step = 0; step < 2; step++) instant = wall - (wallTime(instant, zone) - instant);
  return instant;
}

const isoDay = (dayStart: number) => new Date(dayStart).toISOString().slice(0, 10);

/** The business intervals ([from, to) instants) of each local day from the one holding `from`, in order. */
function* intervals(calendar: BusinessCalendar, from: number): Generator<[number, number]> {
  const hours = calendar.hours!;
  const wall = wallTime(from, calendar.timeZone);
  let dayStart = wall - (wall % DAY_MS);
  for (let day = 0; day < SEARCH_DAYS; day++, dayStart += DAY_MS) {
    if (calendar.holidays.has(isoDay(dayStart))) continue;
    const weekday = new Date(dayStart).getUTCDay();
    for (const interval of hours) {
      if (interval.weekday !== weekday || interval.end <= interval.start) continue;
      yield [
        instantOf(dayStart, interval.start, calendar.timeZone),
        instantOf(dayStart, interval.end, calendar.timeZone),
      ];
    }
  }
}

/** Business seconds between two instants (0 when `to` is not after `from`). */
export function businessSeconds(calendar: BusinessCalendar, from: Date, to: Date): number {
  const [start, end] = [from.getTime(), to.getTime()];
  if (end <= start) return 0;
  if (!calendar.hours) return (end - start) / 1000;
  let total = 0;
  for (const [open, close] of intervals(calendar, start)) {
    if (open >= end) break;
    total += Math.max(0, Math.min(close, end) - Math.max(open, start));
  }
  return total / 1000;
}

/** The instant `seconds` of business time after `from`; null when the calendar has none left (no business hours). */
export function addBusinessSeconds(calendar: BusinessCalendar, from: Date, seconds: number): Date | null {
  const start = from.getTime();
  if (!calendar.hours) return new Date(start + seconds * 1000);
  let remaining = seconds * 1000;
  for (const [open, close] of intervals(calendar, start)) {
    const begin = Math.max(open, start);
    if (begin >= close) continue;
    if (remaining <= close - begin) return new Date(begin + remaining);
    remaining -= close - begin;
  }
  return null;
}
