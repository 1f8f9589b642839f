import { useEffect, useState } from 'react';

/** The value as it was `delayMs` after its last change (people search 400 ms, related search 500 ms; spec 001 §9). */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
