/** Where the sign-in pages live (spec 000 §2); everything else needs a signed-in user. */
export const LOGIN_PATH = '/user/login';
export const ACCESS_DENIED_PATH = '/user/accessDenied';
export const CALLBACK_PATH = '/user/callback';

const SIGN_IN_PAGE = /^(\/[^/]+)?\/user\/(login|accessDenied|callback)\/?$/i;

/** True on /user/login, /{tenantId}/user/login, /user/accessDenied and /user/callback. */
export function isSignInPage(pathname: string): boolean {
  return SIGN_IN_PAGE.test(pathname);
}

/**
 * The address to return to after sign-in, only when it is a path of this site: an absolute
 * or protocol-relative address in `requestUrl` would turn the login page into an open redirect.
 */
export function safeRequestUrl(value: string | null | undefined, fallback = '/'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // A request URL pointing back at a sign-in page would loop.
  const path = value.split(/[?#]/, 1)[0] ?? value;
  return isSignInPage(path) ? fallback : value;
}

/** /user/login?requestUrl=… carrying the address the user was on (spec 000 §8). */
export function loginUrl(requestUrl?: string): string {
  const target = requestUrl ? safeRequestUrl(requestUrl, '') : '';
  return target && target !== '/' ? `${LOGIN_PATH}?requestUrl=${encodeURIComponent(target)}` : LOGIN_PATH;
}

/** What the sign-in request carries through the identity provider and back to the callback. */
export interface SignInState {
  requestUrl: string;
  /** When sign-in started (ms); the session-age fallback if the ID token has no auth_time. */
  startedAt: number;
}

export function readSignInState(state: unknown): SignInState | undefined {
  if (!state || typeof state !== 'object') return undefined;
  const { requestUrl, startedAt } = state as Record<string, unknown>;
  if (typeof requestUrl !== 'string' || typeof startedAt !== 'number') return undefined;
  return { requestUrl: safeRequestUrl(requestUrl), startedAt };
}
