import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_AUTO_HIDE_MS } from '@cfs/contracts/constants';
import { attachToastHost, showOncePerText, showToast, type ToastEvents } from './toast';

describe('toasts before and after their host is there', () => {
  it('keeps the toasts asked for before the host mounts, shows them in order once it does, then each at once', () => {
    showToast('success', 'Saved.');
    showToast('error', 'Failed.', { autoHideMs: 10_000 });
    const shown: string[] = [];
    const detach = attachToastHost((level, message, hideAfterMs) => shown.push(`${level} ${message} ${hideAfterMs}`));
    expect(shown).toEqual([`success Saved. ${TOAST_AUTO_HIDE_MS}`, 'error Failed. 10000']);
    showToast('info', 'Next.');
    expect(shown).toHaveLength(3);
    // A host that left (the app's strict mode mounts it twice) takes no more; the next one does.
    detach();
    showToast('warning', 'Waiting.');
    expect(shown).toHaveLength(3);
    attachToastHost((level, message) => shown.push(`${level} ${message}`));
    expect(shown.at(-1)).toBe('warning Waiting.');
  });
});

describe('the same toast asked for while it shows', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function drawingLog() {
    const log: string[] = [];
    const events = new Map<string, ToastEvents>();
    const show = showOncePerText({
      draw: (key, level, message, drawn) => {
        log.push(`draw ${key} ${level} ${message}`);
        events.set(key, drawn);
      },
      close: (key) => {
        log.push(`close ${key}`);
        events.get(key)?.leaving();
      },
    });
    return {
      log,
      show,
      appear: (key: string) => events.get(key)?.appeared(),
      pushOut: (key: string) => events.get(key)?.leaving(),
    };
  }

  it('is drawn once and shown for its whole time again from the second ask; once on its way out, the same text is a new toast', () => {
    vi.useFakeTimers();
    const { log, show, appear } = drawingLog();
    show('success', 'Control status updated.', 6000);
    appear('toast-1');
    vi.advanceTimersByTime(5000);
    show('success', 'Control status updated.', 6000);
    vi.advanceTimersByTime(5000);
    // Ten seconds after the first ask, five after the second: still showing.
    expect(log).toEqual(['draw toast-1 success Control status updated.']);
    vi.advanceTimersByTime(1000);
    expect(log.at(-1)).toBe('close toast-1');
    // Asked again while the first is leaving the screen: a new toast, not swallowed by the old one.
    show('success', 'Control status updated.', 6000);
    expect(log.at(-1)).toBe('draw toast-2 success Control status updated.');
  });

  it('keeps another level or text apart, and starts the time of a toast waiting behind others when it appears', () => {
    vi.useFakeTimers();
    const { log, show, appear } = drawingLog();
    show('success', 'Saved.', 6000);
    show('error', 'Saved.', 6000);
    show('success', 'Deleted.', 6000);
    expect(log).toHaveLength(3);
    // Not yet on the screen: asked again, it is still one toast, and no time runs out.
    show('success', 'Saved.', 6000);
    vi.advanceTimersByTime(60_000);
    expect(log).toHaveLength(3);
    appear('toast-1');
    vi.advanceTimersByTime(5999);
    expect(log).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(log.at(-1)).toBe('close toast-1');
  });

  it('is drawn anew once the host has pushed it out for newer toasts, before its time ran out', () => {
    vi.useFakeTimers();
    const { log, show, appear, pushOut } = drawingLog();
    show('success', 'Control status created.', 6000);
    appear('toast-1');
    vi.advanceTimersByTime(1000);
    pushOut('toast-1');
    show('success', 'Control status created.', 6000);
    expect(log.at(-1)).toBe('draw toast-2 success Control status created.');
    // The first toast's time, which ran on, closes nothing.
    appear('toast-2');
    vi.advanceTimersByTime(5500);
    expect(log.filter((line) => line.startsWith('close'))).toEqual([]);
    vi.advanceTimersByTime(500);
    expect(log.at(-1)).toBe('close toast-2');
  });
});
