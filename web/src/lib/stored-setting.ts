import { useCallback, useState } from 'react';

function read(key: string, fallback: boolean): boolean {
  try {
    const stored = window.localStorage.getItem(key);
    return stored === null ? fallback : stored === 'true';
  } catch {
    return fallback;
  }
}

/**
 * An on/off setting of this browser that outlives a reload (localStorage), starting at `fallback`
 * until the user chooses.
 *
 * @example
 *   const [autoRefresh, setAutoRefresh] = useStoredSwitch('cfs.workUnits.autoRefresh', true);
 */
export function useStoredSwitch(key: string, fallback: boolean): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => read(key, fallback));
  const set = useCallback(
    (next: boolean) => {
      setOn(next);
      try {
        window.localStorage.setItem(key, String(next));
      } catch {
        // Storage may be full or blocked; the switch still works for this page.
      }
    },
    [key],
  );
  return [on, set];
}
