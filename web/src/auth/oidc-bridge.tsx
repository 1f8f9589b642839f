import { useEffect } from 'react';
import { WebStorageStateStore } from 'oidc-client-ts';
import { AuthProvider, useAuth } from 'react-oidc-context';
import type { AuthSession } from './auth-session';
import { USER_STORE_PREFIX } from './early-start';
import { TabSharedUserManager } from './renewal-lock';
import type { SignInView } from './sign-in';
import { CALLBACK_PATH, LOGIN_PATH } from './sign-in-paths';

/**
 * The sign-in library (oidc-client-ts through react-oidc-context), in a chunk of its own that
 * AuthGate loads only when it is needed: on the sign-in pages, for a stored sign-in whose token
 * must be renewed, before the token's renewal is due, or for an action (sign out). It reports
 * the sign-in state to the gate, which hands it to the page (`useSignIn`).
 */

// Pending sign-in requests get their own prefix: oidc-client-ts clears stale entries by prefix,
// and must never mistake the stored user for one.
const STATE_STORE_PREFIX = 'cfs-portal.signin.';

// oidc-client-ts drops these protocol claims from the profile by default; auth_time is kept
// because the maximum session age is measured from it.
const PROTOCOL_CLAIMS_TO_DROP = ['nbf', 'jti', 'nonce', 'acr', 'amr', 'azp', 'at_hash'];

/** The session's one user manager, made on first use. */
function userManagerOf(session: AuthSession): TabSharedUserManager {
  if (session.userManager instanceof TabSharedUserManager) return session.userManager;
  const { config } = session;
  const origin = window.location.origin;
  const userManager = new TabSharedUserManager({
    authority: config.authority,
    client_id: config.clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}${LOGIN_PATH}`,
    // Authorization code with PKCE (oidc-client-ts adds the code challenge for "code").
    response_type: 'code',
    scope: config.scope,
    // The provider issues refresh tokens, so renewal needs no iframe; each is spent on use, and
    // the tabs renew in turn (renewal-lock.ts).
    automaticSilentRenew: true,
    // The provider re-authenticates past the maximum age and puts auth_time in the ID token.
    max_age: config.lifetime,
    filterProtocolClaims: PROTOCOL_CLAIMS_TO_DROP,
    loadUserInfo: false,
    userStore: new WebStorageStateStore({ store: window.localStorage, prefix: USER_STORE_PREFIX }),
    stateStore: new WebStorageStateStore({ store: window.localStorage, prefix: STATE_STORE_PREFIX }),
  });
  session.userManager = userManager;
  void userManager.clearStaleState();
  return userManager;
}

export default function OidcBridge({ session, onView }: { session: AuthSession; onView: (view: SignInView) => void }) {
  return (
    // Only the callback route completes a sign-in: a code/state pair elsewhere in an address is not ours.
    <AuthProvider userManager={userManagerOf(session)} skipSigninCallback={window.location.pathname !== CALLBACK_PATH}>
      <Report onView={onView} />
    </AuthProvider>
  );
}

/** Hands the provider's state to the gate once it has read the stored sign-in, and each change after. */
function Report({ onView }: { onView: (view: SignInView) => void }) {
  const auth = useAuth();
  useEffect(() => {
    if (!auth.isLoading || auth.activeNavigator) onView(auth);
  }, [auth, onView]);
  return null;
}
