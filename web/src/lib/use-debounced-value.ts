import { useEffect, useState } from 'react';

/**
 * The value as it was `delayMs` after its last change: the grid's live search (250 ms), the
 * people search (400 ms), the related work unit search (500 ms) (spec 000 §9, 001 §9).
 *
 * @example
 *   const term = useDebouncedValue(text, RELATED_SEARCH_DEBOUNCE_MS);
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
