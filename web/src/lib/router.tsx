import {
  Component,
  createContext,
  createElement,
  forwardRef,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  startTransition,
  type AnchorHTMLAttributes,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { matchRoutes, type RouteMatch, type RouteObject } from './route-match';

export type { RouteObject } from './route-match';

/**
 * The portal's router: the browser's history, the route of the address (`route-match.ts`), pages
 * loaded on first visit, and a guard that can hold a navigation for a question (a drawer's unsaved
 * changes). A navigation renders in a transition, so the page on screen stays, with the shell's
 * progress bar (`useNavigationPending`), until the next page's code has arrived.
 *
 * @example
 *   const router = new Router(routes);
 *   <RouterProvider router={router} fallback={<p>Loading…</p>} errorElement={(error) => <Oops error={error} />} />
 *   const navigate = useNavigate();
 *   navigate(`/${tenantId}/workunitsv2?workUnitId=7`);
 */

/** How a history entry was reached: Back or Forward, a new entry, or the current one rewritten. */
export type HistoryAction = 'POP' | 'PUSH' | 'REPLACE';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation carried (`navigate(to, { state })`), kept in the history entry. */
  state: unknown;
  /** The history entry's own key. */
  key: string;
}

/** A navigation as a blocker sees it. */
export interface NavigationStep {
  currentLocation: Location;
  nextLocation: Location;
  historyAction: HistoryAction;
}

export interface NavigateOptions {
  /** Rewrite the current history entry instead of adding one. */
  replace?: boolean;
  state?: unknown;
}

/** A held navigation: Yes goes on with it, No drops it. */
interface HeldNavigation {
  proceed: () => void;
  reset: () => void;
}

interface Guard {
  shouldBlock: (step: NavigationStep) => boolean;
  onHeld: (held: HeldNavigation | undefined) => void;
}

/** What the router writes into each history entry: its position, its key and the navigation's state. */
interface EntryState {
  idx: number;
  key: string;
  usr: unknown;
}

const newKey = () => Math.random().toString(36).slice(2, 10);

function readEntry(): EntryState | undefined {
  const state: unknown = window.history.state;
  if (!state || typeof state !== 'object') return undefined;
  const { idx, key, usr } = state as Partial<EntryState>;
  return typeof idx === 'number' && typeof key === 'string' ? { idx, key, usr } : undefined;
}

/** The address of a location. */
const hrefOf = (location: Pick<Location, 'pathname' | 'search' | 'hash'>) =>
  `${location.pathname}${location.search}${location.hash}`;

export class Router {
  /** The latest location, ahead of the shown one while a navigation's page loads. */
  location: Location;
  /** The location on screen (`RouterProvider` tells it through `showing`). */
  private shown: Location;
  private index: number;
  private readonly listeners = new Set<(location: Location) => void>();
  /** The guards mounted, in order: the last one asks (a drawer opened over another). */
  private readonly guards: Guard[] = [];
  /** Pops the router made itself (putting back an entry a guard held), not to be followed. */
  private ownPops = 0;
  /** A pop a guard let through: followed without asking again. */
  private allowedPop = false;

  constructor(readonly routes: readonly RouteObject[]) {
    let entry = readEntry();
    if (!entry) {
      entry = { idx: 0, key: 'default', usr: null };
      window.history.replaceState(entry, '');
    }
    this.index = entry.idx;
    this.location = { ...this.addressOf(window.location), state: entry.usr ?? null, key: entry.key };
    this.shown = this.location;
    window.addEventListener('popstate', this.onPop);
  }

  /** Goes to `to` (an address, `?search` on this page, or `#hash`), or `delta` entries back or forward. */
  readonly navigate = (to: string | number, options: NavigateOptions = {}): void => {
    if (typeof to === 'number') {
      window.history.go(to);
      return;
    }
    const url = new URL(to, `${window.location.origin}${hrefOf(this.location)}`);
    if (url.origin !== window.location.origin) {
      window.location.assign(url.href);
      return;
    }
    const action: HistoryAction = options.replace ? 'REPLACE' : 'PUSH';
    const next: Location = { ...this.addressOf(url), state: options.state ?? null, key: newKey() };
    const go = () => this.commit(action, next);
    if (this.held(action, next, go)) return;
    go();
  };

  /**
   * What a page's query parameters build on: the latest location while it is on the page shown
   * (its own changes made in one go), else the shown one, so that a click on a page still on screen
   * while the next one loads stays on that page.
   */
  searchBase(): Pick<Location, 'pathname' | 'search'> {
    return this.location.pathname === this.shown.pathname ? this.location : this.shown;
  }

  /** Told by `RouterProvider` of the location it shows. */
  showing(location: Location): void {
    this.shown = location;
  }

  /** Told of every new location. */
  subscribe(listener: (location: Location) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a guard, which asks until it is removed (by the function answered) or another is added. */
  addGuard(guard: Guard): () => void {
    this.guards.push(guard);
    return () => {
      const index = this.guards.indexOf(guard);
      if (index >= 0) this.guards.splice(index, 1);
    };
  }

  private addressOf(url: URL | globalThis.Location): Pick<Location, 'pathname' | 'search' | 'hash'> {
    return { pathname: url.pathname, search: url.search, hash: url.hash };
  }

  private commit(action: HistoryAction, next: Location) {
    if (action === 'PUSH') this.index += 1;
    const entry: EntryState = { idx: this.index, key: next.key, usr: next.state };
    if (action === 'PUSH') window.history.pushState(entry, '', hrefOf(next));
    else window.history.replaceState(entry, '', hrefOf(next));
    this.set(next);
  }

  /** Whether the guard holds the navigation: then it goes on only through `proceed`. */
  private held(action: HistoryAction, next: Location, proceed: () => void): boolean {
    const guard = this.guards.at(-1);
    if (!guard?.shouldBlock({ currentLocation: this.location, nextLocation: next, historyAction: action }))
      return false;
    guard.onHeld({
      proceed: () => {
        guard.onHeld(undefined);
        proceed();
      },
      reset: () => guard.onHeld(undefined),
    });
    return true;
  }

  private readonly onPop = () => {
    if (this.ownPops > 0) {
      this.ownPops -= 1;
      return;
    }
    const entry = readEntry();
    const next: Location = {
      ...this.addressOf(window.location),
      state: entry?.usr ?? null,
      key: entry?.key ?? newKey(),
    };
    const delta = entry ? this.index - entry.idx : 0;
    const allowed = this.allowedPop;
    this.allowedPop = false;
    // Back or Forward has already moved the browser: a held one is undone at once and done again on Yes.
    if (!allowed && delta !== 0) {
      const undone = this.held('POP', next, () => {
        this.allowedPop = true;
        window.history.go(-delta);
      });
      if (undone) {
        this.ownPops += 1;
        window.history.go(delta);
        return;
      }
    }
    if (entry) this.index = entry.idx;
    this.set(next);
  };

  private set(next: Location) {
    this.location = next;
    for (const listener of this.listeners) listener(next);
  }
}

interface RouteState {
  location: Location;
  params: Readonly<Record<string, string | undefined>>;
}

const RouterContext = createContext<Router | null>(null);
const RouteContext = createContext<RouteState | null>(null);
const PendingContext = createContext(false);
const OutletContext = createContext<ReactNode>(null);

/** A route's page, once its module is in. */
const pages = new WeakMap<RouteObject, ComponentType>();
const loading = new WeakMap<RouteObject, Promise<unknown>>();

/**
 * What the routes of `match` still wait for: the modules of their pages not in yet, asked for
 * now. Empty once all are in: the route then renders at once, with no suspense (and none of
 * React's pause before showing what a suspense waited for).
 */
function pagesToLoad(match: RouteMatch | null): Promise<unknown>[] {
  const waits: Promise<unknown>[] = [];
  for (const route of match?.routes ?? []) {
    if (!route.load || pages.has(route)) continue;
    let wait = loading.get(route);
    if (!wait) {
      wait = route.load().then(
        (module) => {
          pages.set(route, module.default);
        },
        (error: unknown) => {
          // A failed download is asked for again on the next visit.
          loading.delete(route);
          throw error;
        },
      );
      loading.set(route, wait);
    }
    waits.push(wait);
  }
  return waits;
}

function RouteElement({ routes, depth }: { routes: readonly RouteObject[]; depth: number }) {
  const route = routes[depth]!;
  const outlet = depth + 1 < routes.length ? <RouteElement routes={routes} depth={depth + 1} /> : null;
  const page = pages.get(route);
  const element = route.element ?? (page ? createElement(page) : <Outlet />);
  return <OutletContext.Provider value={outlet}>{element}</OutletContext.Provider>;
}

interface BoundaryProps {
  resetKey: string;
  fallback: (error: unknown) => ReactNode;
  children: ReactNode;
}

/** Shows `fallback` when a page fails to load or render, until the address changes. */
class RouteErrorBoundary extends Component<BoundaryProps, { failed: boolean; error: unknown; resetKey: string }> {
  override state = { failed: false, error: undefined as unknown, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { failed: false, error: undefined, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? this.props.fallback(this.state.error) : this.props.children;
  }
}

interface Shown {
  location: Location;
  match: RouteMatch | null;
  /** Set when a page's code failed to arrive. */
  error?: unknown;
}

/**
 * Renders the route of the router's location once its pages' code is in: `fallback` until the
 * first page's is, and for a later navigation the page on screen, with `useNavigationPending`, until
 * the next one's is (the newest navigation wins).
 */
export function RouterProvider({
  router,
  fallback,
  errorElement,
}: {
  router: Router;
  fallback: ReactNode;
  errorElement: (error: unknown) => ReactNode;
}) {
  const [shown, setShown] = useState<Shown | undefined>(() => {
    const match = matchRoutes(router.routes, router.location.pathname);
    return pagesToLoad(match).length === 0 ? { location: router.location, match } : undefined;
  });
  const [pending, setPending] = useState(false);
  useEffect(() => {
    let latest = 0;
    const show = (next: Shown) =>
      // The bar goes with the page it waited for, in one render.
      startTransition(() => {
        setPending(false);
        setShown((current) => (current?.location === next.location ? current : next));
      });
    const follow = (next: Location) => {
      const ticket = ++latest;
      const match = matchRoutes(router.routes, next.pathname);
      const waits = pagesToLoad(match);
      if (waits.length === 0) {
        show({ location: next, match });
        return;
      }
      setPending(true);
      Promise.all(waits).then(
        () => {
          if (ticket === latest) show({ location: next, match });
        },
        (error: unknown) => {
          if (ticket === latest) show({ location: next, match, error });
        },
      );
    };
    const unsubscribe = router.subscribe(follow);
    // The first location, and a redirect of the first render's (its effect ran before this one).
    follow(router.location);
    return unsubscribe;
  }, [router]);
  useLayoutEffect(() => {
    if (shown) router.showing(shown.location);
  }, [router, shown]);
  const route = useMemo(
    () => (shown ? { location: shown.location, params: shown.match?.params ?? {} } : null),
    [shown],
  );
  if (!shown || !route) return fallback;
  return (
    <RouterContext.Provider value={router}>
      <RouteContext.Provider value={route}>
        <PendingContext.Provider value={pending}>
          <RouteErrorBoundary resetKey={shown.location.key} fallback={errorElement}>
            {shown.error !== undefined ? (
              errorElement(shown.error)
            ) : (
              <Suspense fallback={fallback}>
                {shown.match ? <RouteElement routes={shown.match.routes} depth={0} /> : null}
              </Suspense>
            )}
          </RouteErrorBoundary>
        </PendingContext.Provider>
      </RouteContext.Provider>
    </RouterContext.Provider>
  );
}

function useRouter(): Router {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Used outside the RouterProvider.');
  return router;
}

function useRoute(): RouteState {
  const route = useContext(RouteContext);
  if (!route) throw new Error('Used outside the RouterProvider.');
  return route;
}

/** The rendered location. */
export function useLocation(): Location {
  return useRoute().location;
}

/** The path's parameters (`:tenantId`…) of the rendered route, inner routes' included. */
export function useParams(): Readonly<Record<string, string | undefined>> {
  return useRoute().params;
}

export function useNavigate(): Router['navigate'] {
  return useRouter().navigate;
}

/** Whether a navigation is waiting for its page's code. */
export function useNavigationPending(): boolean {
  return useContext(PendingContext);
}

/** Where a layout or guard puts the route nested in it. */
export function Outlet() {
  return useContext(OutletContext);
}

/** Goes to `to` once rendered (a redirect). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

export type SetSearchParams = (
  next: URLSearchParams | ((previous: URLSearchParams) => URLSearchParams),
  options?: NavigateOptions,
) => void;

/**
 * The address's query parameters, and their setter: a function is handed the latest ones of the
 * page on screen (`Router.searchBase`), so that changes made in one go build on each other.
 */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const router = useRouter();
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback<SetSearchParams>(
    (next, options) => {
      const { pathname, search: latest } = router.searchBase();
      const value = typeof next === 'function' ? next(new URLSearchParams(latest)) : next;
      const text = value.toString();
      router.navigate(`${pathname}${text ? `?${text}` : ''}`, options);
    },
    [router],
  );
  return [params, setParams];
}

/**
 * Reads the latest query parameters of the page on screen (`Router.searchBase`) when called: for a
 * change that decides how to write itself from what the address holds.
 */
export function useLatestSearchParams(): () => URLSearchParams {
  const router = useRouter();
  return useCallback(() => new URLSearchParams(router.searchBase().search), [router]);
}

export type BlockerState = { state: 'unblocked' } | { state: 'blocked'; proceed: () => void; reset: () => void };

/**
 * Holds the navigations `shouldBlock` says yes to (a new entry, a rewrite, Back or Forward) until
 * the caller answers: `proceed` goes on, `reset` stays. One asks at a time: the last mounted.
 */
export function useBlocker(shouldBlock: (step: NavigationStep) => boolean): BlockerState {
  const router = useRouter();
  const [held, setHeld] = useState<HeldNavigation | undefined>(undefined);
  const latest = useRef(shouldBlock);
  useLayoutEffect(() => {
    latest.current = shouldBlock;
  });
  useEffect(
    () =>
      router.addGuard({
        shouldBlock: (step) => latest.current(step),
        onHeld: setHeld,
      }),
    [router],
  );
  return held ? { state: 'blocked', proceed: held.proceed, reset: held.reset } : { state: 'unblocked' };
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
  state?: unknown;
}

/**
 * An anchor that navigates in the app; a click with a modifier key, another button or another
 * target is the browser's (a new tab). A link to the address already shown rewrites its entry.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, state, onClick, target, ...rest },
  ref,
) {
  const router = useRouter();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      (target !== undefined && target !== '_self') ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey
    )
      return;
    event.preventDefault();
    const here = hrefOf(router.location);
    const there = new URL(to, `${window.location.origin}${here}`);
    router.navigate(to, { replace: replace ?? hrefOf(there) === here, state });
  };
  return <a {...rest} ref={ref} href={to} target={target} onClick={handleClick} />;
});
