import { useEffect, useRef, useState } from 'react';
import { useSignIn } from './sign-in';

/** The authentication states of spec 000 §4. */
export type SignInStatus =
  'signingInSilently' | 'signingOut' | 'loading' | 'error' | 'unauthenticated' | 'authenticated';

/**
 * Where the user stands with sign-in. A stored sign-in whose access token expired while the
 * page was closed is renewed once with its refresh token before the user is sent to login.
 */
export function useSignInStatus(): SignInStatus {
  const auth = useSignIn();
  const [renewalFinished, setRenewalFinished] = useState(false);
  const renewalStarted = useRef(false);
  const canRenew =
    !auth.isLoading &&
    !auth.isAuthenticated &&
    !auth.activeNavigator &&
    Boolean(auth.user?.refresh_token) &&
    !renewalFinished;

  useEffect(() => {
    if (!canRenew || renewalStarted.current) return;
    renewalStarted.current = true;
    void auth.signinSilent().finally(() => setRenewalFinished(true));
  }, [auth, canRenew]);

  if (auth.activeNavigator === 'signinSilent' || canRenew) return 'signingInSilently';
  if (
    auth.activeNavigator === 'signoutRedirect' ||
    auth.activeNavigator === 'signoutSilent' ||
    auth.activeNavigator === 'signoutPopup'
  ) {
    return 'signingOut';
  }
  if (auth.isLoading) return 'loading';
  if (auth.isAuthenticated) return 'authenticated';
  return auth.error ? 'error' : 'unauthenticated';
}
