import { useEffect, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AuthProvider } from 'react-oidc-context';
import { FullPageStatus } from '../lib/full-page-status';
import type { AuthSession } from './auth-session';
import { getAuthSession, storedSubjectWithLiveToken } from './auth-session';
import { oidcClientConfigQuery } from './oidc-config';
import { prefetchSessionData } from './session-data';
import { CALLBACK_PATH, isSignInPage } from './sign-in-paths';
import { useSessionWatch } from './use-session-watch';

/**
 * Loads the OIDC client configuration before anything else (spec 000 §7), then provides the
 * sign-in state to the app. The sign-in callback itself is completed by the provider on
 * /user/callback; that page then returns to the requestUrl of the sign-in state. The page asks
 * for the configuration as it loads (index.html preloads it), and with a stored sign-in the
 * start-up calls go out as soon as it answers (`prefetchSessionData`).
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const config = useQuery(oidcClientConfigQuery);
  const queryClient = useQueryClient();
  const session = config.data ? getAuthSession(config.data) : undefined;
  useEffect(() => {
    const { pathname } = window.location;
    const subject = session && !isSignInPage(pathname) ? storedSubjectWithLiveToken(session) : undefined;
    if (subject) prefetchSessionData(queryClient, subject);
  }, [session, queryClient]);
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
  return (
    // Only the callback route completes a sign-in: a code/state pair elsewhere in an address is not ours.
    <AuthProvider userManager={session.userManager} skipSigninCallback={window.location.pathname !== CALLBACK_PATH}>
      <SessionWatch session={session} />
      {children}
    </AuthProvider>
  );
}

function SessionWatch({ session }: { session: AuthSession }) {
  useSessionWatch(session);
  return null;
}
