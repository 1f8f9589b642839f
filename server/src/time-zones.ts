/** An instant's local calendar date and time of day in a time zone (IANA), as its clocks read. */
export interface ZonedParts {
  year: number;
  /** 1 … 12. */
  month: number;
  day: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The local date, weekday and time of an instant in a zone (one formatter per zone, kept). */
export function zonedParts(at: Date, zone: string): ZonedParts {
  const parts: ZonedParts = { year: 0, month: 0, day: 0, weekday: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(zone).formatToParts(at)) {
    if (part.type === 'weekday') parts.weekday = WEEKDAYS[part.value] ?? 0;
    else if (part.type in parts) parts[part.type as keyof ZonedParts] = Number(part.value);
  }
  return parts;
}

/** An instant to the minute in UTC, as emails and history records write it: `2026-11-29 04:13 UTC`. */
export const utcMinute = (date: Date): string => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
