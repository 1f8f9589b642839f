import { describe, expect, it } from 'vitest';
import { timeSpanParts, timeSpanText } from './time-span-field';

describe('time spans', () => {
  it('read HH:mm:ss into hours, minutes and seconds, past 24 hours too', () => {
    expect(timeSpanParts('00:05:00')).toEqual(['0', '5', '0']);
    expect(timeSpanParts('36:00:30')).toEqual(['36', '0', '30']);
    expect(timeSpanParts('')).toEqual(['', '', '']);
    expect(timeSpanParts(null)).toEqual(['', '', '']);
  });

  it('write the three numbers as HH:mm:ss, an empty box as 0, and three empty boxes as nothing', () => {
    expect(timeSpanText(['0', '5', '0'])).toBe('00:05:00');
    expect(timeSpanText(['', '30', ''])).toBe('00:30:00');
    expect(timeSpanText(['120', '0', '0'])).toBe('120:00:00');
    expect(timeSpanText(['1', '75', '-3'])).toBe('01:59:00');
    expect(timeSpanText(['', '', ''])).toBe('');
  });
});
