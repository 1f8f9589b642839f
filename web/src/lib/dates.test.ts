import { describe, expect, it } from 'vitest';
import { daysUntil, formatDate, formatDateTime, formatRelative, formatShortDateTime, formatTime } from './dates';

const instant = '2026-03-05T19:07:09Z';

describe('dates', () => {
  it('formats a date as "D/MMM/YYYY HH:mm z" in the given zone', () => {
    expect(formatDateTime(instant, 'America/New_York')).toBe('5/Mar/2026 14:07 EST');
    expect(formatDateTime(instant, 'UTC')).toBe('5/Mar/2026 19:07 UTC');
  });

  it('formats a date as "h:mma, ddd, M/D/YYYY"', () => {
    expect(formatShortDateTime(instant, 'America/New_York')).toBe('2:07pm, Thu, 3/5/2026');
  });

  it('formats a time as HH:mm:ss', () => {
    expect(formatTime(instant, 'America/New_York')).toBe('14:07:09');
    expect(formatTime('2026-07-01T08:00:01Z', 'America/New_York')).toBe('04:00:01');
  });

  it('formats the calendar date in the zone, crossing midnight', () => {
    expect(formatDate('2026-03-06T02:00:00Z', 'America/New_York')).toBe('5/Mar/2026');
  });

  it('uses the local zone by default and returns an empty string for no date', () => {
    expect(formatDateTime(instant)).toMatch(/^\d{1,2}\/Mar\/2026 \d{2}:\d{2} \S+/);
    expect(formatDateTime(null)).toBe('');
    expect(formatTime(undefined)).toBe('');
    expect(formatShortDateTime('not a date')).toBe('');
  });

  it('counts whole days left, truncating partial days', () => {
    const now = '2026-03-05T12:00:00Z';
    expect(daysUntil('2026-03-15T12:00:00Z', now)).toBe(10);
    expect(daysUntil('2026-03-15T11:59:59Z', now)).toBe(9);
    expect(daysUntil('2026-03-05T18:00:00Z', now)).toBe(0);
    expect(daysUntil('2026-03-03T12:00:00Z', now)).toBe(-2);
    expect(daysUntil(null, now)).toBeUndefined();
  });

  it('says how long ago a moment was in its largest whole unit, or how far ahead it is', () => {
    const now = '2026-03-05T12:00:00Z';
    expect(formatRelative('2026-03-05T11:59:30Z', now)).toBe('just now');
    expect(formatRelative('2026-03-05T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelative('2026-03-05T10:00:00Z', now)).toBe('2 h ago');
    expect(formatRelative('2026-03-05T09:59:59Z', now)).toBe('2 h ago');
    expect(formatRelative('2026-03-02T12:00:00Z', now)).toBe('3 d ago');
    expect(formatRelative('2025-11-05T12:00:00Z', now)).toBe('4 mo ago');
    expect(formatRelative('2024-03-05T12:00:00Z', now)).toBe('2 y ago');
    expect(formatRelative('2026-03-05T14:00:00Z', now)).toBe('in 2 h');
    expect(formatRelative('2026-04-04T12:00:00Z', now)).toBe('in 1 mo');
    expect(formatRelative(null, now)).toBe('');
    expect(formatRelative('not a date', now)).toBe('');
  });

  it('reads a token expiring a year from now, less the seconds since its creation, as "in 1 y"', () => {
    expect(formatRelative('2027-03-05T11:59:00Z', '2026-03-05T12:00:00Z')).toBe('in 1 y');
    expect(formatRelative('2027-03-05T12:00:00Z', '2026-03-05T12:00:00Z')).toBe('in 1 y');
    expect(formatRelative('2025-03-06T12:00:00Z', '2026-03-05T12:00:00Z')).toBe('1 y ago');
    expect(formatRelative('2028-03-01T12:00:00Z', '2026-03-05T12:00:00Z')).toBe('in 2 y');
  });
});
