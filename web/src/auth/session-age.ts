import { readSignInState } from './sign-in-paths';

export interface SessionFacts {
  profile: { auth_time?: number | undefined };
  state?: unknown;
}

/**
 * When the sign-in passes its maximum age (ms since epoch): the moment the user authenticated
 * plus `lifetime` seconds from the OIDC client configuration (spec 000 §7). Silent renewal does
 * not extend it. The ID token's auth_time is the authority (the provider must send it because
 * the sign-in asks for max_age). Should a provider omit it anyway, the tab that completed the
 * sign-in still knows when it started (the sign-in state, which oidc-client-ts keeps in memory
 * only); other tabs then rely on the provider's own max_age check at the next sign-in.
 */
export function sessionExpiresAt(user: SessionFacts, lifetimeSeconds: number): number | undefined {
  const authTime = user.profile.auth_time;
  const startedMs = typeof authTime === 'number' ? authTime * 1000 : readSignInState(user.state)?.startedAt;
  return startedMs === undefined ? undefined : startedMs + lifetimeSeconds * 1000;
}

/** setTimeout stores its delay in 32 bits; a longer wait is checked again later. */
export const MAX_TIMER_MS = 2_147_483_647;
