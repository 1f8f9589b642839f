import { describe, expect, it } from 'vitest';
import { formatAge, formatPercent } from './device-display';

describe('live values of the devices grid', () => {
  it('shows a percentage to one decimal, and N/A without a packet', () => {
    expect(formatPercent(42.46)).toBe('42.5%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(null)).toBe('N/A');
  });

  it("shows the latest packet's age, and N/A without one", () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(formatAge('2026-03-01T11:55:00Z', now)).toBe('5 min ago');
    expect(formatAge('2026-03-01T09:00:00Z', now)).toBe('3 h ago');
    expect(formatAge(null, now)).toBe('N/A');
  });
});
