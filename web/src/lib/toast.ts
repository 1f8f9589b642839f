import { useMemo, useSyncExternalStore } from 'react';
import { TOAST_AUTO_HIDE_MS } from '@cfs/contracts/constants';

export type ToastLevel = 'success' | 'error' | 'warning' | 'info';

export interface ToastOptions {
  /** Milliseconds before the toast hides; 6000 unless given (spec 000 §4, §9). */
  autoHideMs?: number;
}

/** How the toast host shows one toast. */
type ShowOnHost = (level: ToastLevel, message: string, hideAfterMs: number) => void;

/*
 * The host that draws toasts (app/toast-host.tsx, notistack) loads with the first toast, not with
 * the first screen: until it is there, toasts wait here, and the app mounts it when one is asked
 * for (`useToastHostWanted`).
 */
let host: ShowOnHost | undefined;
const waiting: Parameters<ShowOnHost>[] = [];
let wanted = false;
const listeners = new Set<() => void>();

/** Shows a toast; usable outside React (the API client's 403 handler). */
export function showToast(level: ToastLevel, message: string, options: ToastOptions = {}): void {
  const hideAfterMs = options.autoHideMs ?? TOAST_AUTO_HIDE_MS;
  if (host) {
    host(level, message, hideAfterMs);
    return;
  }
  waiting.push([level, message, hideAfterMs]);
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/** The mounted host: shows the toasts that waited, then each at once; the returned function detaches it. */
export function attachToastHost(show: ShowOnHost): () => void {
  host = show;
  for (const toast of waiting.splice(0)) show(...toast);
  return () => {
    if (host === show) host = undefined;
  };
}

/** What a drawn toast tells the one who drew it. */
export interface ToastEvents {
  appeared: () => void;
  leaving: () => void;
}

/** How a host draws a toast (under the key it is given) and takes it away again. */
export interface ToastDrawing {
  /**
   * Draws the toast. `events.appeared` is called once it is on the screen (it may wait behind
   * others first), `events.leaving` once it starts to go for any reason (closed, or pushed out by
   * newer toasts).
   */
  draw: (key: string, level: ToastLevel, message: string, events: ToastEvents) => void;
  close: (key: string) => void;
}

/**
 * A host's way to show toasts: each hides its time after it appears, and the same toast (level and
 * text) asked for again while it shows is not drawn twice but shown for its whole time again, so
 * that a person who saves twice in a row still sees that the second save landed. Once a toast is
 * on its way out, the same text asked for again is a new toast.
 */
export function showOncePerText(drawing: ToastDrawing): ShowOnHost {
  interface Shown {
    key: string;
    hideAfterMs: number;
    timer?: ReturnType<typeof setTimeout>;
  }
  const showing = new Map<string, Shown>();
  let drawn = 0;
  const hideLater = (shown: Shown): void => {
    clearTimeout(shown.timer);
    shown.timer = setTimeout(() => drawing.close(shown.key), shown.hideAfterMs);
  };
  const leaving = (id: string, shown: Shown): void => {
    clearTimeout(shown.timer);
    if (showing.get(id) === shown) showing.delete(id);
  };
  return (level, message, hideAfterMs) => {
    const id = `${level}\n${message}`;
    const current = showing.get(id);
    if (current) {
      current.hideAfterMs = hideAfterMs;
      // Still waiting behind other toasts: its time starts when it appears.
      if (current.timer !== undefined) hideLater(current);
      return;
    }
    drawn += 1;
    const shown: Shown = { key: `toast-${drawn}`, hideAfterMs };
    showing.set(id, shown);
    drawing.draw(shown.key, level, message, {
      appeared: () => hideLater(shown),
      leaving: () => leaving(id, shown),
    });
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a toast has been asked for, so the app mounts the host. */
export function useToastHostWanted(): boolean {
  return useSyncExternalStore(subscribe, () => wanted);
}

export interface Toast {
  success: (message: string, options?: ToastOptions) => void;
  error: (message: string, options?: ToastOptions) => void;
  warning: (message: string, options?: ToastOptions) => void;
  info: (message: string, options?: ToastOptions) => void;
}

/**
 * Toasts of the four levels of spec 000 §4.
 *
 * @example
 *   const toast = useToast();
 *   toast.success('Tenant saved');
 *   toast.error(error.message, { autoHideMs: 10_000 });
 */
export function useToast(): Toast {
  return useMemo(
    () => ({
      success: (message, options) => showToast('success', message, options),
      error: (message, options) => showToast('error', message, options),
      warning: (message, options) => showToast('warning', message, options),
      info: (message, options) => showToast('info', message, options),
    }),
    [],
  );
}
