import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AuthProvider } from 'react-oidc-context';
import { FullPageStatus } from '../lib/full-page-status';
import type { AuthSession } from './auth-session';
import { getAuthSession } from './auth-session';
import { oidcClientConfigQuery } from './oidc-config';
import { CALLBACK_PATH } from './sign-in-paths';
import { useSessionWatch } from './use-session-watch';

/**
 * Loads the OIDC client configuration before anything else (spec 000 §7), then provides the
 * sign-in state to the app. The sign-in callback itself is completed by the provider on
 * /user/callback; that page then returns to the requestUrl of the sign-in state.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const config = useQuery(oidcClientConfigQuery);
  if (config.isPending) return <FullPageStatus message="Loading..." />;
  if (config.isError) {
    return <FullPageStatus message="The portal could not reach the server. Please try again." onRetry={() => void config.refetch()} />;
  }
  const session = getAuthSession(config.data);
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
