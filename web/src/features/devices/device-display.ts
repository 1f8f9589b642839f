import { formatRelative } from '../../lib/dates';

/** A live value of the latest packet, or N/A when the device has sent none (spec 002 §2). */
export function formatPercent(value: number | null): string {
  return value === null ? 'N/A' : `${value.toFixed(1)}%`;
}

/** The latest packet's age ("5 min ago"), or N/A when there is none. */
export function formatAge(timestamp: string | null, now: number): string {
  return timestamp ? formatRelative(timestamp, now) : 'N/A';
}
