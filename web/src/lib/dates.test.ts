import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { describe, expect, it } from 'vitest';
import { DATE_FORMAT, SHORT_DATE_FORMAT, TIME_FORMAT } from '@cfs/contracts/constants';
import {
  daysUntil,
  formatDate,
  formatDateTime,
  formatRelative,
  formatShortDateTime,
  formatSeconds,
  formatSpan,
  formatTime,
} from './dates';

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
    // June: no daylight-saving change in between in any zone the suite may run in.
    const now = '2026-06-05T12:00:00Z';
    expect(daysUntil('2026-06-15T12:00:00Z', now)).toBe(10);
    expect(daysUntil('2026-06-15T11:59:59Z', now)).toBe(9);
    expect(daysUntil('2026-06-05T18:00:00Z', now)).toBe(0);
    expect(daysUntil('2026-06-03T12:00:00Z', now)).toBe(-2);
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

// The date pickers' library reads the same format tokens: the list's dates must read as theirs do.
dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(advancedFormat);

describe('dates as the date library shows them', () => {
  // A fixed sequence of moments from 1995 to 2045, daylight-saving changes and month ends among them.
  const moments = Array.from(
    { length: 3000 },
    (_, i) => Date.UTC(1995, 0, 1) + ((i * 7_919_993_117) % 1_577_880_000_000),
  );
  const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham'];

  it('formats every moment in every zone as dayjs does', () => {
    for (const zone of zones)
      for (const moment of moments.slice(0, 500)) {
        const iso = new Date(moment).toISOString();
        const theirs = dayjs(iso).tz(zone);
        expect(formatDateTime(iso, zone), `${iso} ${zone}`).toBe(theirs.format(DATE_FORMAT));
        expect(formatShortDateTime(moment, zone), `${iso} ${zone}`).toBe(theirs.format(SHORT_DATE_FORMAT));
        expect(formatTime(new Date(moment), zone), `${iso} ${zone}`).toBe(theirs.format(TIME_FORMAT));
      }
  });

  it('reads a date written without a zone in local time, as dayjs does', () => {
    for (const text of ['2026-03-05', '2026-03-05 14:07', '2026-03-05T14:07:09.123', '20260305', '2026/3/5'])
      expect(formatDateTime(text, 'UTC'), text).toBe(dayjs(text).tz('UTC').format(DATE_FORMAT));
  });

  it('counts days and says how long ago as dayjs does, over pairs of moments near and far apart', () => {
    for (let i = 0; i < moments.length - 1; i += 1) {
      const from = moments[i] ?? 0;
      const to = from + (((moments[i + 1] ?? 0) % 90_000_000_000) - 45_000_000_000);
      expect(daysUntil(to, from), `${from} ${to}`).toBe(dayjs(to).diff(dayjs(from), 'day'));
      const span = Math.abs(dayjs(from).diff(dayjs(to), 'month', true));
      const months = Math.max(1, Math.round(span));
      if (Math.abs(to - from) >= 30 * 86_400_000)
        expect(formatRelative(to, from), `${from} ${to}`).toMatch(
          new RegExp(`^(in )?${months < 12 ? `${months} mo` : `${Math.round(span / 12)} y`}( ago)?$`),
        );
    }
  });
});

describe('formatSpan', () => {
  it('says a span in hours, minutes and seconds', () => {
    expect(['00:00:10', '00:01:00', '00:30:00', '01:00:00', '04:30:00', '24:00:00'].map(formatSpan)).toEqual([
      '10 seconds',
      '1 minute',
      '30 minutes',
      '1 hour',
      '4 hours 30 minutes',
      '24 hours',
    ]);
  });

  it('says a number of seconds in the same words (formatSeconds)', () => {
    expect([10, 60, 5400, 86_400, 0].map(formatSeconds)).toEqual([
      '10 seconds',
      '1 minute',
      '1 hour 30 minutes',
      '24 hours',
      '0 minutes',
    ]);
  });
});
