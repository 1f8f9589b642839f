import { MONITORING_LIMITS } from '@cfs/contracts/monitoring';
import type { TimeConditions } from '@cfs/contracts/rules';
import { zonedParts } from '../../time-zones.js';

/**
 * A rule's time limitations (spec 002 §3 timeConditions) as a test of an instant. Every part that
 * is set must hold, read in the rule's time zone (so a window follows its zone's daylight-saving
 * changes: 09:00–17:00 New York is 14:00–22:00 UTC in winter and 13:00–21:00 in summer):
 *
 * - StartRange/EndRange: the instant lies between them (either may be missing; dates before the
 *   empty-date threshold of §9, 1 Jan 2022, count as missing).
 * - DaysOfWeek (0 Sunday … 6 Saturday): the local day is one of them; none listed means every day.
 * - DaysOfMonth ("1,15,31"): the local day of the month is one of them; a month without a 31st
 *   simply has no such day.
 * - DailyStartTime/DailyEndTime (HH:mm[:ss]): the local time of day lies in [start, end); an end
 *   at or before the start spans midnight (22:00–06:00); only one of them bounds that side alone.
 */
export type TimeWindow = (at: Date) => boolean;

/** The local calendar day, weekday and second of the day of an instant in a time zone. */
export function localParts(at: Date, zone: string): { day: number; weekday: number; second: number } {
  const { day, weekday, hour, minute, second } = zonedParts(at, zone);
  return { day, weekday, second: hour * 3600 + minute * 60 + second };
}

function secondOfDay(text: string | null): number | undefined {
  if (!text) return undefined;
  const [hours, minutes, seconds] = text.split(':').map(Number);
  return (hours ?? 0) * 3600 + (minutes ?? 0) * 60 + (seconds ?? 0);
}

const EMPTY_BEFORE = Date.parse(MONITORING_LIMITS.emptyDateThreshold);
function rangeBound(text: string | null): number | undefined {
  if (!text) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) || at < EMPTY_BEFORE ? undefined : at;
}

export function compileTimeWindow(time: TimeConditions): TimeWindow {
  const zone = time.TimeZoneId;
  const start = rangeBound(time.StartRange);
  const end = rangeBound(time.EndRange);
  const weekdays = new Set(time.DaysOfWeek);
  const monthDays = new Set(
    (time.DaysOfMonth ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map(Number),
  );
  const dailyStart = secondOfDay(time.DailyStartTime);
  const dailyEnd = secondOfDay(time.DailyEndTime);
  const inDaily = (second: number): boolean => {
    if (dailyStart === undefined && dailyEnd === undefined) return true;
    if (dailyStart === undefined) return second < dailyEnd!;
    if (dailyEnd === undefined) return second >= dailyStart;
    return dailyEnd > dailyStart
      ? second >= dailyStart && second < dailyEnd
      : second >= dailyStart || second < dailyEnd;
  };
  return (at) => {
    const instant = at.getTime();
    if (start !== undefined && instant < start) return false;
    if (end !== undefined && instant > end) return false;
    if (weekdays.size === 0 && monthDays.size === 0 && dailyStart === undefined && dailyEnd === undefined) return true;
    const local = localParts(at, zone);
    if (weekdays.size > 0 && !weekdays.has(local.weekday)) return false;
    if (monthDays.size > 0 && !monthDays.has(local.day)) return false;
    return inDaily(local.second);
  };
}
