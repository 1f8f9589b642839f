import { describe, expect, it } from 'vitest';
import { addBusinessSeconds, businessSeconds, type BusinessCalendar } from './calendar.js';

const HOUR = 3600;
/** Monday to Friday, 09:00–17:00 New York, Thanksgiving 2026 a holiday. */
const newYork: BusinessCalendar = {
  timeZone: 'America/New_York',
  hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: 9 * HOUR, end: 17 * HOUR })),
  holidays: new Set(['2026-11-26']),
};

describe('service level calendar', () => {
  it('counts around the clock without business hours', () => {
    const always: BusinessCalendar = { timeZone: 'UTC', hours: null, holidays: new Set() };
    const from = new Date('2026-11-27T22:00:00Z');
    expect(businessSeconds(always, from, new Date('2026-11-28T02:30:00Z'))).toBe(4.5 * HOUR);
    expect(addBusinessSeconds(always, from, 4 * HOUR)?.toISOString()).toBe('2026-11-28T02:00:00.000Z');
  });

  it('skips the weekend: four hours from Friday 15:00 is Monday 11:00 in the zone', () => {
    // Friday 27 November 2026, 15:00 New York (EST, UTC−5).
    const friday = new Date('2026-11-27T20:00:00Z');
    expect(addBusinessSeconds(newYork, friday, 4 * HOUR)?.toISOString()).toBe('2026-11-30T16:00:00.000Z');
    expect(businessSeconds(newYork, friday, new Date('2026-11-30T16:00:00Z'))).toBe(4 * HOUR);
    // Saturday counts nothing.
    expect(businessSeconds(newYork, new Date('2026-11-28T14:00:00Z'), new Date('2026-11-29T23:00:00Z'))).toBe(0);
  });

  it('skips a holiday: eight hours from Wednesday 13:00 before Thanksgiving end Friday 13:00', () => {
    const wednesday = new Date('2026-11-25T18:00:00Z');
    expect(addBusinessSeconds(newYork, wednesday, 8 * HOUR)?.toISOString()).toBe('2026-11-27T18:00:00.000Z');
    expect(businessSeconds(newYork, wednesday, new Date('2026-11-27T18:00:00Z'))).toBe(8 * HOUR);
  });

  it('follows daylight saving: business hours are local, 13:00–21:00 UTC in summer', () => {
    const summerMonday = new Date('2026-07-06T12:00:00Z'); // 08:00 EDT
    expect(addBusinessSeconds(newYork, summerMonday, HOUR)?.toISOString()).toBe('2026-07-06T14:00:00.000Z');
    // Across the change on 1 November 2026: Friday 16:00 EDT plus two hours is Monday 10:00 EST.
    expect(addBusinessSeconds(newYork, new Date('2026-10-30T20:00:00Z'), 2 * HOUR)?.toISOString()).toBe(
      '2026-11-02T15:00:00.000Z',
    );
  });

  it('has no due time when no day has business hours', () => {
    const never: BusinessCalendar = { timeZone: 'UTC', hours: [], holidays: new Set() };
    expect(addBusinessSeconds(never, new Date('2026-01-01T00:00:00Z'), 60)).toBeNull();
  });
});
