import { User, type UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { OidcClientConfig } from '@cfs/contracts/shell';
import { FORBIDDEN_TOAST_MS } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { configureApiClient } from '../lib/api-client';
import { showToast } from '../lib/toast';
import { CALLBACK_PATH, LOGIN_PATH, isSignInPage, loginUrl } from './sign-in-paths';
import { liveStoredSignIn, USER_STORE_PREFIX, userStorageKey } from './early-start';
import { TabSharedUserManager } from './renewal-lock';

// Pending sign-in requests get their own prefix: oidc-client-ts clears stale entries by prefix,
// and must never mistake the stored user for one.
const STATE_STORE_PREFIX = 'cfs-portal.signin.';

// oidc-client-ts drops these protocol claims from the profile by default; auth_time is kept
// because the maximum session age is measured from it.
const PROTOCOL_CLAIMS_TO_DROP = ['nbf', 'jti', 'nonce', 'acr', 'amr', 'azp', 'at_hash'];

export interface AuthSession {
  userManager: UserManager;
  /** The local-storage key of the stored user, watched for removal by other tabs. */
  userStorageKey: string;
  /** Maximum sign-in age in seconds. */
  lifetimeSeconds: number;
  /** The provider and client it signs in with. */
  config: Pick<OidcClientConfig, 'authority' | 'clientId'>;
}

let current: { key: string; session: AuthSession } | undefined;

/**
 * The one UserManager of the page, created once per configuration: a second instance would
 * run its own silent-renew timer and spend the same refresh token twice.
 */
export function getAuthSession(config: OidcClientConfig): AuthSession {
  const key = `${config.authority}|${config.clientId}|${config.scope}|${config.lifetime}`;
  if (current?.key === key) return current.session;
  current?.session.userManager.stopSilentRenew();
  const session = createAuthSession(config);
  current = { key, session };
  return session;
}

function createAuthSession(config: OidcClientConfig): AuthSession {
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
  const session: AuthSession = {
    userManager,
    userStorageKey: userStorageKey(config),
    lifetimeSeconds: config.lifetime,
    config,
  };
  void userManager.clearStaleState();
  wireApiClient(session);
  return session;
}

function storedAccessToken(session: AuthSession): string | undefined {
  // Read from storage on every call so a token renewed by another tab is used at once.
  const stored = window.localStorage.getItem(session.userStorageKey);
  if (!stored) return undefined;
  try {
    return User.fromStorageString(stored).access_token;
  } catch {
    return undefined;
  }
}

/**
 * The stored sign-in's subject while its access token has more than a minute to live (the
 * provider renews it a minute before it expires), else undefined: a sign-in that must be renewed
 * first, or none. The page's early script reads it the same way (early-start.ts).
 */
export function storedSubjectWithLiveToken(session: AuthSession): string | undefined {
  return liveStoredSignIn(session.config)?.subject;
}

let leavingForLogin = false;

/**
 * Drops the stored sign-in and opens the login page, which brings the user back to the
 * current address after signing in (spec 000 §8). A full page load, so no state of the old
 * session survives.
 */
export function leaveForLogin(session: AuthSession, withRequestUrl = true): void {
  if (leavingForLogin) return;
  leavingForLogin = true;
  const { pathname, search, hash } = window.location;
  const target = withRequestUrl ? loginUrl(`${pathname}${search}${hash}`) : LOGIN_PATH;
  void session.userManager.removeUser().finally(() => window.location.assign(target));
}

function wireApiClient(session: AuthSession): void {
  configureApiClient({
    accessToken: () => storedAccessToken(session),
    onUnauthorized: () => {
      // The sign-in pages call a few endpoints without a token; going "back" to login from
      // there would reload the page forever.
      if (isSignInPage(window.location.pathname)) return;
      leaveForLogin(session);
    },
    onForbidden: () => showToast('error', SHELL_MESSAGES.forbiddenToast, { autoHideMs: FORBIDDEN_TOAST_MS }),
  });
}
