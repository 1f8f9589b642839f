import { useSyncExternalStore } from 'react';

/**
 * The current time, renewed every minute: what relative times ("2 h ago") are measured from.
 * One timer serves every subscriber, and runs only while something on screen uses it.
 *
 * @example
 *   const now = useNow();
 *   <span>{formatRelative(row.modified, now)}</span>
 */
export function useNow(): number {
  return useSyncExternalStore(subscribe, current);
}

const TICK_MS = 60_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function current(): number {
  return now;
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    // A screen opened after a pause starts from the time it opens at.
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}
