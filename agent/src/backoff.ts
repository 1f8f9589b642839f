/**
 * Exponential backoff with full jitter: after `failures` failures in a row, wait a random time
 * up to `base × 2^(failures-1)`, capped, so that agents that lost the portal together do not all
 * come back at the same second.
 */
export function backoffDelay(
  failures: number,
  options: { baseMs?: number; maxMs?: number; random?: () => number } = {},
): number {
  if (failures <= 0) return 0;
  const base = options.baseMs ?? 1000;
  const max = options.maxMs ?? 5 * 60_000;
  const ceiling = Math.min(max, base * 2 ** Math.min(failures - 1, 30));
  const random = options.random ?? Math.random;
  // Never less than half the ceiling: a retry right away would only fail again.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
