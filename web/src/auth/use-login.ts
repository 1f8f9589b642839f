import { useState } from 'react';
import { useSignIn } from './sign-in';
import { useQuery } from '@tanstack/react-query';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { apiGet } from '../lib/api-client';
import type { SignInState } from './sign-in-paths';
import { safeRequestUrl } from './sign-in-paths';

export interface LoginOptions {
  /** The address to come back to after sign-in (the requestUrl query parameter). */
  requestUrl: string | null;
  /** Where to go when no requestUrl was given. */
  fallbackUrl: string;
  /** On the access-denied page the provider asks for credentials again, so another account can be used. */
  forceCredentials: boolean;
}

export interface Login {
  login: () => void;
  redirecting: boolean;
  /** Why the last sign-in failed, if it did. */
  error: string | undefined;
}

/** The login page's action: redirect to the identity provider, carrying the request URL in the sign-in state. */
export function useLogin({ requestUrl, fallbackUrl, forceCredentials }: LoginOptions): Login {
  const auth = useSignIn();
  const [redirecting, setRedirecting] = useState(false);
  const login = () => {
    setRedirecting(true);
    const state: SignInState = { requestUrl: safeRequestUrl(requestUrl, fallbackUrl), startedAt: Date.now() };
    // Resolves only if the redirect failed; the provider then reports the error through auth.error.
    void auth
      .signinRedirect({ state, ...(forceCredentials ? { prompt: 'login' } : {}) })
      .finally(() => setRedirecting(false));
  };
  return {
    login,
    redirecting: redirecting || auth.activeNavigator === 'signinRedirect',
    error: auth.error && loginProblem(auth.error),
  };
}

/**
 * What Login says of a failure: the redirect step only reads the identity provider's discovery
 * document, so its failure (the provider down, unknown or answering 404) means sign-in is not
 * available, said as such rather than as the browser's "Failed to fetch"; other steps keep their message.
 */
function loginProblem(error: { message: string; source?: string }): string {
  return error.source === 'signinRedirect' ? SHELL_MESSAGES.signInUnavailable : error.message;
}

const REQUEST_FORM_FEATURE = 'I3ERequestForm';

/**
 * Whether the "Request Access or Reset Account" button shows (spec 001 §2): only when the
 * feature flag answers exactly `true`; false, an error or a missing endpoint all mean off.
 */
export function useRequestAccessEnabled(): boolean {
  const { data } = useQuery({
    queryKey: ['features', REQUEST_FORM_FEATURE, 'enabled'],
    queryFn: ({ signal }) =>
      apiGet<unknown>(`/v1/features/${REQUEST_FORM_FEATURE}/enabled`, undefined, { signal, allowForbidden: true }),
    retry: false,
    staleTime: 5 * 60_000,
  });
  return data === true;
}
