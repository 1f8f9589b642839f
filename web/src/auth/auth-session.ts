import type { OidcClientConfig } from '@cfs/contracts/shell';
import { FORBIDDEN_TOAST_MS } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { configureApiClient } from '../lib/api-client';
import { showToast } from '../lib/toast';
import { LOGIN_PATH, isSignInPage, loginUrl } from './sign-in-paths';
import { userStorageKey } from './early-start';
import { readStoredUser } from './sign-in';

/** What of the sign-in library's user manager the page reaches for outside it (oidc-bridge.tsx). */
export interface LoadedUserManager {
  removeUser(): Promise<void>;
  stopSilentRenew(): void;
}

export interface AuthSession {
  /** The local-storage key of the stored user, watched for removal by other tabs. */
  userStorageKey: string;
  /** Maximum sign-in age in seconds. */
  lifetimeSeconds: number;
  /** The provider and client it signs in with. */
  config: OidcClientConfig;
  /** The sign-in library's user manager, once it has been loaded (oidc-bridge.tsx). */
  userManager?: LoadedUserManager;
}

let current: { key: string; session: AuthSession } | undefined;

/**
 * The page's sign-in session, one per configuration. It needs nothing of the sign-in library:
 * the API client reads the token from the stored sign-in, and the library's user manager is made
 * once it is needed (oidc-bridge.tsx) — a second one would run its own renewal timer and spend the
 * same refresh token twice.
 */
export function getAuthSession(config: OidcClientConfig): AuthSession {
  const key = `${config.authority}|${config.clientId}|${config.scope}|${config.lifetime}`;
  if (current?.key === key) return current.session;
  current?.session.userManager?.stopSilentRenew();
  const session: AuthSession = { userStorageKey: userStorageKey(config), lifetimeSeconds: config.lifetime, config };
  current = { key, session };
  wireApiClient(session);
  return session;
}

/** Removes the stored sign-in: through the user manager when it is loaded (it tells the page), else from storage. */
export async function removeStoredSignIn(session: AuthSession): Promise<void> {
  if (session.userManager) await session.userManager.removeUser();
  else window.localStorage.removeItem(session.userStorageKey);
}

function storedAccessToken(session: AuthSession): string | undefined {
  // Read from storage on every call so a token renewed by another tab is used at once.
  return readStoredUser(session.userStorageKey)?.access_token;
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
  void removeStoredSignIn(session).finally(() => window.location.assign(target));
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
