import { useCallback } from 'react';
import { useSignIn } from './sign-in';
import { LOGIN_PATH } from './sign-in-paths';

/**
 * Log out (spec 000 §6): removes the stored sign-in, then ends the provider's session, which
 * returns to /user/login. Should the provider offer no end-session endpoint, the local
 * sign-in is removed all the same and the login page opened directly.
 */
export function useLogout(): () => Promise<void> {
  const auth = useSignIn();
  return useCallback(async () => {
    // Resolves only when the redirect did not happen (failure, or a page restored from the back-forward cache).
    await auth.signoutRedirect();
    await auth.removeUser();
    window.location.assign(LOGIN_PATH);
  }, [auth]);
}
