import type { Attainment } from '@cfs/contracts/service-levels';

/** An attainment as the report shows it: "92.3%", or "–" when no clock was decided. */
export function percentText(tally: Attainment): string {
  return tally.attainment === null ? '–' : `${(tally.attainment * 100).toFixed(1)}%`;
}

/** "12 of 13 met", or "none decided". */
export function tallyText(tally: Attainment): string {
  return tally.decided === 0 ? 'none decided' : `${tally.met} of ${tally.decided} met`;
}

/** The month before or after `YYYY-MM`. */
export function shiftMonth(month: string, by: number): string {
  const [year = 1970, monthNumber = 1] = month.split('-').map(Number);
  const date = new Date(Date.UTC(year, monthNumber - 1 + by, 1));
  return date.toISOString().slice(0, 7);
}

/** A month (`YYYY-MM`) from the address, or the current one; anything else is the current one. */
export function monthFromAddress(text: string | null, now: Date = new Date()): string {
  if (text !== null && /^\d{4}-(0[1-9]|1[0-2])$/.test(text)) return text;
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

/** A month as people say it: "November 2026". */
export function monthName(month: string): string {
  const [year = 1970, monthNumber = 1] = month.split('-').map(Number);
  return new Date(Date.UTC(year, monthNumber - 1, 1)).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
