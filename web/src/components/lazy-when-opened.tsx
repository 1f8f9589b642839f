import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

/**
 * A drawer or dialog whose code loads the first time it opens, not with the page: a grid page
 * paints its rows without the forms, date pickers and form library behind its panels. Until the
 * first open it renders nothing; from then on it stays mounted, so closing animates and opening
 * again waits for nothing. While the code arrives nothing shows (no spinner): the panel then
 * slides in as it would have.
 *
 * @example
 *   const TenantDrawer = lazyWhenOpened(() => import('./tenant-drawer'), (props) => props.tenantId !== null);
 *   <TenantDrawer tenantId={drawer.openId} onClose={drawer.close} />
 */
export function lazyWhenOpened<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  isOpen: (props: P) => boolean,
): (props: P) => ReactNode {
  const Loaded = lazy(load);
  return function LazyWhenOpened(props: P) {
    const open = isOpen(props);
    const [opened, setOpened] = useState(open);
    // Set during render (React's pattern for state derived from props): no frame without the panel.
    if (open && !opened) setOpened(true);
    if (!opened && !open) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
