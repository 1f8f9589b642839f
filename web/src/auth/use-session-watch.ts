import { useEffect } from 'react';
import { useSignIn } from './sign-in';
import type { AuthSession } from './auth-session';
import { leaveForLogin, removeStoredSignIn } from './auth-session';
import { MAX_TIMER_MS, sessionExpiresAt } from './session-age';
import { LOGIN_PATH, isSignInPage } from './sign-in-paths';

function storedSubject(stored: string | null): string | undefined {
  if (!stored) return undefined;
  try {
    const parsed: unknown = JSON.parse(stored);
    const profile =
      typeof parsed === 'object' && parsed !== null ? (parsed as { profile?: { sub?: unknown } }).profile : undefined;
    return typeof profile?.sub === 'string' ? profile.sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Ends this tab's session when the stored sign-in is removed in another tab (spec 000 §4) or
 * when the sign-in passes its maximum age (spec 000 §7). A different user signing in from
 * another tab reloads this one, so it never shows one user's data with another's token.
 */
export function useSessionWatch(session: AuthSession): void {
  const { user } = useSignIn();
  const subject = user?.profile.sub;
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea !== window.localStorage) return;
      // key is null when another tab cleared the whole storage.
      if (event.key !== null && event.key !== session.userStorageKey) return;
      if (isSignInPage(window.location.pathname)) return;
      const stored = window.localStorage.getItem(session.userStorageKey);
      if (stored === null) {
        window.location.assign(LOGIN_PATH);
        return;
      }
      const storedSub = storedSubject(stored);
      if (subject !== undefined && storedSub !== undefined && storedSub !== subject) window.location.reload();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [session, subject]);

  const expiresAt = user ? sessionExpiresAt(user, session.lifetimeSeconds) : undefined;
  useEffect(() => {
    if (expiresAt === undefined) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const remaining = expiresAt - Date.now();
      if (remaining > 0) {
        timer = setTimeout(check, Math.min(remaining, MAX_TIMER_MS));
      } else if (isSignInPage(window.location.pathname)) {
        void removeStoredSignIn(session);
      } else {
        leaveForLogin(session);
      }
    };
    check();
    return () => clearTimeout(timer);
  }, [expiresAt, session]);
}
