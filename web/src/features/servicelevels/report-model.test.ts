import { describe, expect, it } from 'vitest';
import { monthFromAddress, monthName, percentText, shiftMonth, tallyText } from './report-model';

describe('the service level report’s texts', () => {
  it('says attainment as a percentage, and how many met of those decided', () => {
    expect(percentText({ decided: 3, met: 2, missed: 1, attainment: 2 / 3 })).toBe('66.7%');
    expect(percentText({ decided: 0, met: 0, missed: 0, attainment: null })).toBe('–');
    expect(tallyText({ decided: 3, met: 2, missed: 1, attainment: 2 / 3 })).toBe('2 of 3 met');
    expect(tallyText({ decided: 0, met: 0, missed: 0, attainment: null })).toBe('none decided');
  });

  it('reads the month from the address, else the current one, and steps across years', () => {
    const now = new Date(2026, 10, 27);
    expect(monthFromAddress('2026-02', now)).toBe('2026-02');
    expect(monthFromAddress('2026-13', now)).toBe('2026-11');
    expect(monthFromAddress(null, now)).toBe('2026-11');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(monthName('2026-11')).toBe('November 2026');
  });
});
