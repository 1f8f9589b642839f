import { createContext, useContext } from 'react';

/** What the portal reads of a signed-in user: the stored sign-in's fields (oidc-client-ts `User`). */
export interface SignedInUser {
  profile: { sub: string; auth_time?: number | undefined };
  refresh_token?: string | undefined;
  /** The sign-in request's state; only the tab that completed the sign-in has it. */
  state?: unknown;
}

/**
 * Where the user stands with sign-in, and what can be done about it: the part of
 * react-oidc-context's `useAuth()` the portal uses. A page opened with a live stored sign-in
 * starts from that sign-in alone (`storedSignInView`) and loads the sign-in library only when it
 * is needed (oidc-bridge.tsx): to renew the token, to sign out, or on the sign-in pages.
 */
export interface SignInView {
  isLoading: boolean;
  isAuthenticated: boolean;
  activeNavigator?: string | undefined;
  /** The last failure, and which step of the library's it came from (`signinRedirect`, `signinCallback`…). */
  error?: { message: string; source?: string } | undefined;
  user?: SignedInUser | null | undefined;
  signinRedirect(args?: { state?: unknown; prompt?: string }): Promise<void>;
  signinSilent(): Promise<unknown>;
  signoutRedirect(): Promise<void>;
  removeUser(): Promise<void>;
}

export const SignInContext = createContext<SignInView | null>(null);

/** The sign-in state of the page (inside AuthGate). */
export function useSignIn(): SignInView {
  const view = useContext(SignInContext);
  if (!view) throw new Error('useSignIn is used outside AuthGate.');
  return view;
}

/** The stored sign-in under `key`, as far as the portal reads it; undefined when there is none or it is unreadable. */
export function readStoredUser(key: string): (SignedInUser & { access_token: string }) | undefined {
  const stored = window.localStorage.getItem(key);
  if (!stored) return undefined;
  try {
    const user = JSON.parse(stored) as Partial<SignedInUser & { access_token: unknown }>;
    const { access_token: accessToken, profile } = user;
    if (typeof accessToken !== 'string' || typeof profile?.sub !== 'string') return undefined;
    const authTime = profile.auth_time;
    return {
      access_token: accessToken,
      profile: { sub: profile.sub, ...(typeof authTime === 'number' ? { auth_time: authTime } : {}) },
      ...(typeof user.refresh_token === 'string' ? { refresh_token: user.refresh_token } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * The view of a page that starts from a live stored sign-in: signed in as that user. Its actions
 * wait for the sign-in library (`loaded`), then act through it.
 */
export function storedSignInView(user: SignedInUser, loaded: () => Promise<SignInView>): SignInView {
  return {
    isLoading: false,
    isAuthenticated: true,
    user,
    signinRedirect: async (args) => (await loaded()).signinRedirect(args),
    signinSilent: async () => (await loaded()).signinSilent(),
    signoutRedirect: async () => (await loaded()).signoutRedirect(),
    removeUser: async () => (await loaded()).removeUser(),
  };
}

/** The view until the sign-in library has read the stored sign-in (a page without a live one). */
export function loadingSignInView(loaded: () => Promise<SignInView>): SignInView {
  return {
    ...storedSignInView({ profile: { sub: '' } }, loaded),
    isLoading: true,
    isAuthenticated: false,
    user: undefined,
  };
}
