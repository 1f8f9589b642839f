import { Suspense, use, useEffect, useState, type ComponentType, type ReactNode } from 'react';

/** The loads of the panels on screen whose code has not been asked for yet (see `preloadOnIntent`). */
const waiting = new Set<() => void>();
let intentSeen = false;

/**
 * The user's first move on a page (the pointer, a touch, a key) asks for the code of every panel
 * the page can open, so that a click on a row finds it there. Not at the page's load: the first
 * screen's scripts, and a visit that opens no panel, stay as small as they were.
 */
function preloadOnIntent(): void {
  intentSeen = true;
  for (const load of waiting) load();
  waiting.clear();
  // From here on a panel asks for its code as its page mounts: the listeners have done their part.
  for (const type of INTENT_EVENTS) window.removeEventListener(type, preloadOnIntent, { capture: true });
}

const INTENT_EVENTS = ['pointermove', 'pointerdown', 'keydown', 'touchstart'] as const;
if (typeof window !== 'undefined') {
  for (const type of INTENT_EVENTS) window.addEventListener(type, preloadOnIntent, { capture: true, passive: true });
}

/** Runs `task` when the browser is next idle (or after a moment where it cannot tell). */
function whenIdle(task: () => void): { cancel: () => void } {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 2000 });
    return { cancel: () => window.cancelIdleCallback(id) };
  }
  const id = window.setTimeout(task, 200);
  return { cancel: () => window.clearTimeout(id) };
}

/**
 * A drawer or dialog whose code loads the first time it opens, not with the page: a grid page
 * paints its rows without the forms, date pickers and form library behind its panels. Until the
 * first open it renders nothing; from then on it stays mounted, so closing animates and opening
 * again waits for nothing. The code is also asked for as soon as the user moves on the page
 * (`preloadOnIntent`): a panel whose code is in renders at once on the click, without suspending
 * (a suspended panel was revealed some 300 ms after its code came, React's throttle of fallbacks).
 * While the code arrives nothing shows (no spinner): the panel then slides in as it would have.
 *
 * @example
 *   const TenantDrawer = lazyWhenOpened(() => import('./tenant-drawer'), (props) => props.tenantId !== null);
 *   <TenantDrawer tenantId={drawer.openId} onClose={drawer.close} />
 */
export function lazyWhenOpened<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  isOpen: (props: P) => boolean,
): (props: P) => ReactNode {
  let component: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (module) => {
        component = module.default;
        return module;
      },
      (error: unknown) => {
        // A failed download is asked for again on the next open, not remembered as failed.
        pending = undefined;
        throw error;
      },
    ));
  function Loaded(props: P) {
    const Component = component ?? use(preload()).default;
    return <Component {...props} />;
  }
  return function LazyWhenOpened(props: P) {
    const open = isOpen(props);
    const [opened, setOpened] = useState(open);
    // Set during render (React's pattern for state derived from props): no frame without the panel.
    if (open && !opened) setOpened(true);
    useEffect(() => {
      if (component || pending) return;
      const ask = () => void preload().catch(() => undefined);
      if (intentSeen) {
        // Once the user has moved, the page's own first work goes before its panels' code.
        const idle = whenIdle(ask);
        return () => idle.cancel();
      }
      waiting.add(ask);
      return () => {
        waiting.delete(ask);
      };
    }, []);
    if (!opened && !open) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
