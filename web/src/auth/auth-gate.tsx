import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FullPageStatus } from '../lib/full-page-status';
import type { AuthSession } from './auth-session';
import { getAuthSession } from './auth-session';
import { liveStoredSignIn, LIVE_TOKEN_SECONDS } from './early-start';
import { oidcClientConfigQuery } from './oidc-config';
import { prefetchSessionData } from './session-data';
import { loadingSignInView, readStoredUser, SignInContext, storedSignInView, type SignInView } from './sign-in';
import { isSignInPage } from './sign-in-paths';
import { MAX_TIMER_MS } from './session-age';
import { useSessionWatch } from './use-session-watch';

/** The sign-in library, loaded when it is needed (oidc-bridge.tsx). */
const OidcBridge = lazy(() => import('./oidc-bridge'));

/**
 * Loads the OIDC client configuration before anything else (spec 000 §7), then provides the
 * sign-in state to the app (`useSignIn`). The page asks for the configuration as it loads
 * (index.html preloads it). With a stored sign-in whose token is live the page is signed in at
 * once: the start-up calls go out as soon as the configuration answers (`prefetchSessionData`),
 * and the sign-in library loads only before the token's renewal is due or for an action (sign
 * out). Otherwise — the sign-in pages, no stored sign-in, or one to renew first — the library
 * loads at once and the page waits for it. The sign-in callback itself is completed by the
 * library on /user/callback; that page then returns to the requestUrl of the sign-in state.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const config = useQuery(oidcClientConfigQuery);
  const session = config.data ? getAuthSession(config.data) : undefined;
  if (config.isPending) return <FullPageStatus message="Loading..." />;
  if (config.isError) {
    return (
      <FullPageStatus
        message="The portal could not reach the server. Please try again."
        onRetry={() => void config.refetch()}
      />
    );
  }
  if (!session) return null;
  return <SignInProvider session={session}>{children}</SignInProvider>;
}

/** A promise with its resolve, for the actions that wait for the sign-in library. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

function SignInProvider({ session, children }: { session: AuthSession; children: ReactNode }) {
  const queryClient = useQueryClient();
  // Read once per session: a live stored sign-in outside the sign-in pages starts the page signed in.
  const live = useMemo(
    () => (isSignInPage(window.location.pathname) ? undefined : liveStoredSignIn(session.config)),
    [session],
  );
  const [libraryWanted, setLibraryWanted] = useState(live === undefined);
  const [reported, setReported] = useState<SignInView>();
  const [library] = useState(() => deferred<SignInView>());
  const loaded = useCallback(() => {
    setLibraryWanted(true);
    return library.promise;
  }, [library]);
  const onView = useCallback(
    (view: SignInView) => {
      library.resolve(view);
      setReported(view);
    },
    [library],
  );
  const start = useMemo(() => {
    const user = live && readStoredUser(session.userStorageKey);
    return user ? storedSignInView(user, loaded) : loadingSignInView(loaded);
  }, [live, session, loaded]);

  useEffect(() => {
    if (live) prefetchSessionData(queryClient, live.subject);
  }, [live, queryClient]);
  // The library renews the token a minute before it expires: it is in place a minute before that.
  useEffect(() => {
    if (!live || libraryWanted) return undefined;
    const due = (live.expiresAt - 2 * LIVE_TOKEN_SECONDS) * 1000 - Date.now();
    const timer = setTimeout(() => setLibraryWanted(true), Math.min(Math.max(due, 0), MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [live, libraryWanted]);

  const view = reported ?? start;
  return (
    <SignInContext.Provider value={view}>
      {libraryWanted && (
        <Suspense fallback={null}>
          <OidcBridge session={session} onView={onView} />
        </Suspense>
      )}
      <SessionWatch session={session} />
      {children}
    </SignInContext.Provider>
  );
}

function SessionWatch({ session }: { session: AuthSession }) {
  useSessionWatch(session);
  return null;
}
