import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from '../lib/router';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';
import { FullPageStatus } from '../lib/full-page-status';
import { sessionStartQuery, useSessionSubject } from './session-data';
import { ACCESS_DENIED_PATH, loginUrl } from './sign-in-paths';
import { useSignInStatus } from './use-sign-in-status';

/**
 * Layout route in front of every app page: shows the authentication state (spec 000 §4) and,
 * once signed in, loads the session's start (permissions, current user…) before rendering the page (its
 * children, or the child route).
 */
export function RequireSignIn({ children }: { children?: ReactNode }) {
  const status = useSignInStatus();
  const location = useLocation();
  switch (status) {
    case 'signingInSilently':
      return <FullPageStatus message="Signing you in..." />;
    case 'signingOut':
      return <FullPageStatus message="Signing you out..." />;
    case 'loading':
      return <FullPageStatus message="Loading..." />;
    case 'authenticated':
      return <SessionDataGate>{children ?? <Outlet />}</SessionDataGate>;
    case 'error':
    case 'unauthenticated':
      return <Navigate to={loginUrl(`${location.pathname}${location.search}${location.hash}`)} replace />;
  }
}

const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

function SessionDataGate({ children }: { children: ReactNode }) {
  const start = useQuery(sessionStartQuery(useSessionSubject()));
  // A 403 on the session's start leads to the access-denied page (spec 000 §6).
  if (isForbidden(start.error)) return <Navigate to={ACCESS_DENIED_PATH} replace />;
  if (start.isError) {
    return (
      <FullPageStatus
        message="Your profile could not be loaded. Please try again."
        onRetry={() => void start.refetch()}
      />
    );
  }
  if (start.isPending) return <FullPageStatus message="Loading..." />;
  return children;
}
