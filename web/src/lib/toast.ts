import { useMemo } from 'react';
import { closeSnackbar, enqueueSnackbar, type VariantType } from 'notistack';
import { TOAST_AUTO_HIDE_MS } from '@cfs/contracts/constants';

export type ToastLevel = Extract<VariantType, 'success' | 'error' | 'warning' | 'info'>;

export interface ToastOptions {
  /** Milliseconds before the toast hides; 6000 unless given (spec 000 §4, §9). */
  autoHideMs?: number;
}

/** Shows a toast; usable outside React (the API client's 403 handler) as long as the provider is mounted. */
export function showToast(level: ToastLevel, message: string, options: ToastOptions = {}): void {
  const hideAfterMs = options.autoHideMs ?? TOAST_AUTO_HIDE_MS;
  enqueueSnackbar(message, {
    variant: level,
    // The same text twice at once (several calls failing together) is shown once.
    preventDuplicate: true,
    // notistack's own timer stops while the pointer rests on a toast, and a toast that appears
    // under the pointer (which has just clicked Save) then never goes: the toast keeps the
    // spec's time from when it appears instead.
    autoHideDuration: null,
    onEnter: (_node, _isAppearing, key) => setTimeout(() => closeSnackbar(key), hideAfterMs),
  });
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
