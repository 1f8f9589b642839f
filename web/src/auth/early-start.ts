import type { OidcClientConfig, SessionStart } from '@cfs/contracts/shell';
import { preloadPageChunks } from './page-chunks';
import { isSignInPage } from './sign-in-paths';

/**
 * The first calls of a page load, sent by a small script of their own (`early-start-entry.ts`,
 * put into the page by `vite-early-start.ts`) while the app's scripts still download: the sign-in
 * configuration, then, when local storage holds a sign-in whose token is live, the session's
 * start (`GET /v1/session`) and the opened page's scripts (`page-chunks.ts`). The app takes each
 * answer once (`takeEarly…`) instead of asking again; a later call, or a page without the script,
 * asks as usual.
 *
 * Only what reads local storage, `fetch` and the DOM is here: nothing of the app's libraries.
 */

/** Sign-in data lives in local storage under a portal-specific key (spec 000 §7). */
export const USER_STORE_PREFIX = 'cfs-portal.';

/** The local-storage key oidc-client-ts keeps the signed-in user under. */
export const userStorageKey = (config: Pick<OidcClientConfig, 'authority' | 'clientId'>) =>
  `${USER_STORE_PREFIX}user:${config.authority}:${config.clientId}`;

/** The seconds a token must still have to be used: the provider renews it a minute before it expires. */
export const LIVE_TOKEN_SECONDS = 60;

/** The stored sign-in of this configuration while its access token is live, else undefined. */
export function liveStoredSignIn(
  config: Pick<OidcClientConfig, 'authority' | 'clientId'>,
): { subject: string; accessToken: string; expiresAt: number } | undefined {
  const stored = window.localStorage.getItem(userStorageKey(config));
  if (!stored) return undefined;
  try {
    const user = JSON.parse(stored) as { access_token?: unknown; expires_at?: unknown; profile?: { sub?: unknown } };
    const { access_token: accessToken, expires_at: expiresAt } = user;
    const subject = user.profile?.sub;
    if (typeof accessToken !== 'string' || typeof subject !== 'string' || typeof expiresAt !== 'number')
      return undefined;
    return expiresAt - Date.now() / 1000 > LIVE_TOKEN_SECONDS ? { subject, accessToken, expiresAt } : undefined;
  } catch {
    return undefined;
  }
}

interface EarlyStart {
  config?: Promise<OidcClientConfig | undefined>;
  session?: Promise<{ subject: string; start: SessionStart } | undefined>;
}

declare global {
  interface Window {
    cfsEarlyStart?: EarlyStart;
  }
}

/** The sign-in configuration's call (spec 000 §7), which index.html preloads. */
export const CONFIG_PATH = '/api/generalLookup/oidcclientconfig';

async function jsonOrUndefined<T>(answer: Promise<Response>): Promise<T | undefined> {
  try {
    const response = await answer;
    return response.ok ? ((await response.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Sends the page's first calls (the entry script runs this once, as soon as it has loaded). */
export function beginEarlyStart(): void {
  // The request index.html preloads (same mode and credentials), so the answer is shared.
  const config = jsonOrUndefined<OidcClientConfig>(fetch(CONFIG_PATH, { credentials: 'same-origin' }));
  const session = config.then(async (loaded) => {
    if (!loaded || isSignInPage(window.location.pathname)) return undefined;
    const signIn = liveStoredSignIn(loaded);
    if (!signIn) return undefined;
    const answer = fetch('/v1/session', { headers: { authorization: `Bearer ${signIn.accessToken}` } });
    // The opened page's scripts, after the session's call so that it goes out first.
    preloadPageChunks(window.location.pathname);
    const start = await jsonOrUndefined<SessionStart>(answer);
    return start ? { subject: signIn.subject, start } : undefined;
  });
  window.cfsEarlyStart = { config, session };
}

/** The early sign-in configuration, once; undefined when there is none (then the app asks). */
export function takeEarlyConfig(): Promise<OidcClientConfig | undefined> | undefined {
  const early = window.cfsEarlyStart;
  const config = early?.config;
  if (early) early.config = undefined;
  return config;
}

/** The early session start when it is `subject`'s, once; undefined when there is none (then the app asks). */
export async function takeEarlySessionStart(subject: string): Promise<SessionStart | undefined> {
  const early = window.cfsEarlyStart;
  const session = early?.session;
  if (early) early.session = undefined;
  const answer = await session;
  return answer?.subject === subject ? answer.start : undefined;
}
