import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a revealed secret value stays on screen before it is masked again. */
export const REVEAL_MS = 60_000;

/**
 * Revealed secret values by secret id, held in this screen's state only. Each is masked again on
 * Hide, `hideAfterMs` after it was revealed, and when the screen goes away: a value left on an
 * unattended screen is not shown for long.
 */
export function useRevealedValues(hideAfterMs: number = REVEAL_MS) {
  const [values, setValues] = useState<Readonly<Record<string, string>>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const hide = useCallback((id: string) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setValues((previous) => {
      if (!(id in previous)) return previous;
      const next = { ...previous };
      delete next[id];
      return next;
    });
  }, []);

  const show = useCallback(
    (id: string, value: string) => {
      clearTimeout(timers.current.get(id));
      timers.current.set(
        id,
        setTimeout(() => hide(id), hideAfterMs),
      );
      setValues((previous) => ({ ...previous, [id]: value }));
    },
    [hide, hideAfterMs],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  return { values, show, hide };
}
